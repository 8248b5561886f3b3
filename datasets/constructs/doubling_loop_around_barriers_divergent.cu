// expect: divergent
// The mutant of `doubling_loop_around_barriers_drf.cu` whose inner loop runs
// once more in odd threads: they wait at a barrier the even threads never
// reach.

__global__ void smooth_levels(float *data, unsigned int n) {
  __shared__ float s[256];
  unsigned int t = threadIdx.x;
  s[t] = data[blockIdx.x * 256 + t];
  for (unsigned int width = 1; width < n; width <<= 1) {
    for (unsigned int r = 0; r < width + (t & 1); r++) {
      __syncthreads();
      float right = s[(t + 1) % 256];
      __syncthreads();
      s[t] = 0.5f * (s[t] + right);
    }
  }
  __syncthreads();
  data[blockIdx.x * 256 + t] = s[t];
}

void launch(float *data, unsigned int blocks, unsigned int n) {
  smooth_levels<<<blocks, 256>>>(data, n);
}
