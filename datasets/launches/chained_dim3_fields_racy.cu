// expect: racy
// The launch of `chained_dim3_fields_drf.cu` with a kernel that indexes
// by `threadIdx.x` alone: the 16 rows of a block (`threads.y`, set in the
// middle of a chain) write the same cells with different values. Read as
// `threads.y == 1`, the chain would hide the race.
#define BLOCK_SIZE 16
#define WIDTH (4 * BLOCK_SIZE)
#define HEIGHT (5 * BLOCK_SIZE)

__global__ void fill_row(float *out) {
  int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  out[blockIdx.y * WIDTH + col] = threadIdx.y;
}

void launch(float *out) {
  dim3 threads;
  threads.x = threads.y = BLOCK_SIZE;
  dim3 grid;
  grid.x = WIDTH / threads.x;
  grid.y = HEIGHT / threads.y;
  threads.z = grid.z = 1;
  fill_row<<<grid, threads>>>(out);
}
