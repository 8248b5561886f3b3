// expect: racy
// options: --block-dim 32,8
// A PolyBench-style 2D update: rows are COLS elements long, but the column
// guard uses the parameter m. For m > COLS a thread past the end of a row
// writes the first cells of the next row, which another thread owns: a
// race only for such m, reported as possible with the precondition
// `m <= 2048`.
#define COLS 2048
__global__ void normalise_rows(int m, int n, float *mean, float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) {
    data[i * COLS + j] -= mean[j];
  }
}
