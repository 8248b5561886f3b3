// expect: drf
// Tiles of a square matrix rotated within their row of tiles, in an order
// chosen at run time: with `skew` set, block (bx, by) writes tile column
// `(bx + by) % gridDim.x`, so that concurrent blocks spread over memory
// partitions. The grid is square, so the skew is a permutation of each
// row of tiles, and every tile has one block.
#define TILE 32
#define ROWS 8

__global__ void copy_tiles(float *dst, const float *src, int n, int skew) {
  int tile_col, tile_row;
  if (skew) {
    tile_row = blockIdx.y;
    tile_col = (blockIdx.x + blockIdx.y) % gridDim.x;
  } else {
    tile_row = blockIdx.y;
    tile_col = blockIdx.x;
  }
  const int col = tile_col * TILE + threadIdx.x;
  for (int r = threadIdx.y; r < TILE; r += ROWS) {
    const int row = tile_row * TILE + r;
    dst[row * n + col] = src[row * n + blockIdx.x * TILE + threadIdx.x];
  }
}

void copy(float *dst, const float *src, int n, int skew) {
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  copy_tiles<<<grid, block>>>(dst, src, n, skew);
}
