// expect: racy
// wavefront_blocks_on_a_diagonal_drf.cu with every tile of a diagonal
// in the same band of rows and half a tile apart: neighbouring blocks'
// columns overlap.
#define TILE 16

__global__ void diagonal_tiles(int *score, const int *cost, int cols,
                               int diagonal, int tiles) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int row = diagonal - 1;
  int corner = cols * TILE * row + TILE * bx / 2 + cols + 1;
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
