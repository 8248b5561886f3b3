// expect: racy
// options: --block-dim 32,8 --grid-dim 8,4 --param width=256 --param height=128
// Mutant of transpose_tiled_drf.cu: the barrier between filling the tile and
// reading it transposed is missing, so thread (x, y) reads tile[x][y + j]
// while the thread that loads row x, column y + j may still be writing it.

#define TILE 32
#define ROWS 8

__global__ void transpose_tiled_nosync(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];

  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }

  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    if (tx < height && ty + j < width)
      out[(ty + j) * height + tx] = tile[threadIdx.x][threadIdx.y + j];
  }
}
