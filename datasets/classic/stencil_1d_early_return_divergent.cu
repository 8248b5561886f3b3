// expect: divergent
// options: --block-dim 128 --grid-dim 8
// 1D stencil with the usual bounds check written as an early return before
// the barrier: the threads past n never reach __syncthreads.

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d_early_return(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  int l = threadIdx.x + RADIUS;

  s[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS) {
    s[l - RADIUS] = in[g];
    s[l + BLOCK] = in[g + RADIUS + BLOCK];
  }
  __syncthreads();

  float r = 0.0f;
  for (int o = -RADIUS; o <= RADIUS; o++)
    r += s[l + o];
  out[g] = r;
}
