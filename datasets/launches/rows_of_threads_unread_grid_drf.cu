// expect: drf
// rows_of_threads_unread_grid_racy.cu launched with blocks of one row of
// 256 threads: each thread has a row of its own.
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
  dim3 block(256, 1);
  dim3 grid((size_t)ceil((float)n / (float)block.x), 1);
  row_sums<<<grid, block>>>(n, a, x, y);
}
