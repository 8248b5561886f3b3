// expect: drf
// A register tile whose sizes are template parameters, as tensor-core
// GEMMs declare their accumulators (`uint32_t RC[WARP_TILE_M][WARP_TILE_N][2]`):
// each thread's own cells, filled and summed in loops, then one store per
// thread. In the template clang gives a subscript of such an array no
// type; its dimensions come from the declaration.
#include <stdint.h>

template <int TILE_M = 4, int TILE_N = 4>
__global__ void accumulate_tile(const uint32_t *in, uint32_t *out) {
  uint32_t acc[TILE_M][TILE_N][2];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < TILE_M; ++i)
    for (int j = 0; j < TILE_N; ++j) {
      acc[i][j][0] = in[tid * 2];
      acc[i][j][1] = in[tid * 2 + 1] + i * j;
    }
  uint32_t sum = 0;
  for (int i = 0; i < TILE_M; ++i)
    for (int j = 0; j < TILE_N; ++j)
      sum += acc[i][j][0] ^ acc[i][j][1];
  out[tid] = sum;
}

template __global__ void accumulate_tile<4, 4>(const uint32_t *, uint32_t *);
