// expect: racy
// A matrix-vector product written for one thread per row, launched with
// blocks of 32 x 8 threads over a grid host code computes in floating
// point (which launch inference does not read): the eight threads of a
// column of the block share one row and all write its sum. The race is
// in block 0, which every grid has, so it is confirmed even though the
// grid size is unknown.
#include <math.h>

__global__ void row_sums(int n, const float *a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 0;
    for (int j = 0; j < n; j++)
      y[i] += a[i * n + j] * x[j];
  }
}

void run(int n, const float *a, const float *x, float *y) {
  dim3 block(32, 8);
  dim3 grid((size_t)ceil((float)n / (float)block.x), 1);
  row_sums<<<grid, block>>>(n, a, x, y);
}
