// expect: drf
// A smoothing pass repeated `width` times for widths 1, 2, 4, … below `n`:
// the outer loop doubles its variable, so drfscan does not count its
// iterations, but its bounds and step are the block's, so every thread
// reaches each barrier of the inner loop (bounded by `width`) together.

__global__ void smooth_levels(float *data, unsigned int n) {
  __shared__ float s[256];
  unsigned int t = threadIdx.x;
  s[t] = data[blockIdx.x * 256 + t];
  for (unsigned int width = 1; width < n; width <<= 1) {
    for (unsigned int r = 0; r < width; r++) {
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
