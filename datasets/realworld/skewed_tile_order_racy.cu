// expect: racy
// skewed_tile_order_drf.cu skewing twice the block's column: on a grid of
// an even width, blocks `bx` and `bx + gridDim.x / 2` of one row take the
// same tile column, and write it with different tiles.
#define TILE 32
#define ROWS 8

__global__ void copy_tiles(float *dst, const float *src, int n, int skew) {
  int tile_col, tile_row;
  if (skew) {
    tile_row = blockIdx.y;
    tile_col = (2 * blockIdx.x + blockIdx.y) % gridDim.x;
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
