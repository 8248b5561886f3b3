// expect: drf
// Host code reuses one pair of dim3 values for several launches and sets
// the grid from the block (`grid.x = DIVISIONS / threads.x`, Rodinia's
// bucket sort): the prefix pass runs exactly DIVISIONS threads, each
// scanning its own column of the offsets table.
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
  threads.x = 128;
  grid.x = DIVISIONS / threads.x;
  column_prefix<<<grid, threads>>>(offsets, totals, rows);
}
