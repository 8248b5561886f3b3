// expect: racy
// `real_t` and `TILE_DIM` come from the Makefile next to this file
// (`-DSINGLE -DTILE_DIM=32 -Iinclude`).
#include "real.h"

__global__ void transpose(real_t *out, const real_t *in, int n) {
  __shared__ real_t tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  // No barrier: a thread reads a cell another thread of the block writes.
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

void run(real_t *out, const real_t *in, int n) {
  dim3 grid((n + TILE_DIM - 1) / TILE_DIM, (n + TILE_DIM - 1) / TILE_DIM);
  transpose<<<grid, dim3(TILE_DIM, TILE_DIM)>>>(out, in, n);
}
