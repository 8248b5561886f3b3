// expect: racy
// options: --block-dim 64 --grid-dim 1
// A `__shared__` array declared in a loop's body is one array in every
// iteration: with no barrier at the end of the body, the next iteration's
// write of `t[threadIdx.x]` races with a slower thread's read of it.
__global__ void stages(const float *x, float *y, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    __shared__ float t[64];
    t[threadIdx.x] = x[r * 64 + threadIdx.x];
    __syncthreads();
    y[r * 64 + threadIdx.x] = t[63 - threadIdx.x];
  }
}
