// expect: racy
// local_array_template_sizes_drf.cu storing each thread's sum into cell
// tid / 2, which the neighbouring thread also stores: the private tile is
// followed, and the store races.
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
  out[tid / 2] = sum;
}

template __global__ void accumulate_tile<4, 4>(const uint32_t *, uint32_t *);
