// expect: drf
// options: --block-dim 16,16
// The same BLAS-style update with the caller's contract written down: the
// leading dimension holds every row index the grid's threads reach, so
// element (m, n) belongs to one thread.
__global__ void scale_add(float *C, const float *A, int ldc, int lda, float alpha, float beta) {
  __requires(ldc >= blockDim.x * gridDim.x);
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y * blockDim.y + threadIdx.y;
  C[m + n * ldc] = C[m + n * ldc] * beta + alpha * A[m + n * lda];
}
