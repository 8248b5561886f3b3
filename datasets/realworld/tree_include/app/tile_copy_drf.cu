// expect: drf
// options: --block-dim 16,16
// `bench_sizes.h` lives in ../common, named with angle brackets and no -I:
// drfscan finds it in the scanned tree (and says so in a warning). Without
// it, CLAMP would be an unknown function and TILE undeclared.
#include <bench_sizes.h>
__global__ void tile_copy(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int cx = CLAMP(x, n - 1);
  tile[threadIdx.y][threadIdx.x] = in[y * n + cx];
  __syncthreads();
  if (x < n && y < n)
    out[y * n + x] = tile[threadIdx.y][threadIdx.x];
}
