// expect: drf
// options: --block-dim 32,8
// row_length_bound_racy.cu with the precondition drfscan suggests for it.
#define COLS 2048
__global__ void normalise_rows(int m, int n, float *mean, float *data) {
  __requires(m <= COLS);
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) {
    data[i * COLS + j] -= mean[j];
  }
}
