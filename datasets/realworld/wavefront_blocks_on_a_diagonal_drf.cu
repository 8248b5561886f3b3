// expect: drf
// A dynamic-programming matrix filled in 16x16 tiles along anti-diagonals:
// launch `d` runs the `d` tiles of diagonal `d`, block `b` taking the tile
// in row `d - 1 - b`, column `b`. The host launches one kernel per
// diagonal with the grid passed as an argument too, and the tile count
// per row is `(cols - 1) / TILE`, so a tile's columns stay inside a row.
// Proving it needs the row length from the launch's quotient.
#define TILE 16

__global__ void diagonal_tiles(int *score, const int *cost, int cols,
                               int diagonal, int tiles) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int row = diagonal - 1 - bx;
  int corner = cols * TILE * row + TILE * bx + cols + 1;
  __shared__ int tile[TILE][TILE];
  for (int ty = 0; ty < TILE; ty++)
    tile[ty][tx] = cost[corner + tx + cols * ty];
  __syncthreads();
  for (int ty = 0; ty < TILE; ty++)
    score[corner + tx + cols * ty] += tile[tx][ty];
}

void fill(int *score, const int *cost, int cols) {
  int tiles = (cols - 1) / TILE;
  for (int d = 1; d <= tiles; d++)
    diagonal_tiles<<<d, TILE>>>(score, cost, cols, d, tiles);
}
