// expect: drf
// options: --block-dim 128 --grid-dim 8
// 1D stencil of radius 3: each block stages its 128 cells plus a halo of 3
// on either side in shared memory (the first 3 threads load the halos),
// then every thread sums 7 neighbours. The input is padded by RADIUS cells
// on both ends.

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d(const float *in, float *out) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
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
