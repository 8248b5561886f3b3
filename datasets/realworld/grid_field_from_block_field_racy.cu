// expect: racy
// grid_field_from_block_field_drf.cu with the grid computed from the block
// before the block is widened: 1024 / 32 blocks of 128 threads are four
// times DIVISIONS threads, and threads DIVISIONS apart scan one column.
#define DIVISIONS 1024

__global__ void column_prefix(unsigned *offsets, unsigned *totals, int rows) {
  int column = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sum = 0;
  for (int i = column; i < rows * DIVISIONS; i += DIVISIONS) {
    unsigned x = offsets[i];
    offsets[i] = sum;
    sum += x;
  }
  totals[column] = sum;
}

void prefix(unsigned *offsets, unsigned *totals, int rows) {
  dim3 threads(32, 1);
  dim3 grid(rows, 1);
  grid.x = DIVISIONS / threads.x;
  threads.x = 128;
  column_prefix<<<grid, threads>>>(offsets, totals, rows);
}
