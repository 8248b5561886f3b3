// expect: drf
// options: --block-dim 32,8 --grid-dim 4,4 --param width=128 --param height=128
// Faial Table 1, test 1 (DRF): as transpose_diagonal_racy.cu with a barrier
// after the read loop, so repetition r+1 writes `tile` only after every
// thread has read it in repetition r. With a square 4x4 grid and 128x128
// matrices the diagonal ordering is a bijection, so `odata` is race-free too.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_diagonal(float *odata, const float *idata,
                                   int width, int height, int nreps) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  // Diagonal reordering of the (square) grid spreads the blocks over the
  // memory partitions.
  int blockIdx_y = blockIdx.x;
  int blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;

  int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + yIndex * width;

  xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + yIndex * height;

  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
      tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];

    __syncthreads();

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
      odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];

    __syncthreads();
  }
}
