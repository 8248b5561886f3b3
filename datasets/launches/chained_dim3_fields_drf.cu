// expect: drf
// Block and grid set field by field with chained assignments, as older
// SDK-style host code does (`threads.x = threads.y = BLOCK_SIZE`): the
// block is 16 x 16, and each thread writes its own cell of its block's
// tile.
#define BLOCK_SIZE 16
#define WIDTH (4 * BLOCK_SIZE)
#define HEIGHT (5 * BLOCK_SIZE)

__global__ void fill_tiles(float *out, int width) {
  int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int row = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  out[row * width + col] = row - col;
}

void launch(float *out) {
  dim3 threads;
  threads.x = threads.y = BLOCK_SIZE;
  dim3 grid;
  grid.x = WIDTH / threads.x;
  grid.y = HEIGHT / threads.y;
  threads.z = grid.z = 1;
  fill_tiles<<<grid, threads>>>(out, WIDTH);
}
