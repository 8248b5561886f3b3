// expect: racy
// options: --block-dim 16,16
// A matrix kernel in the BLAS style: element (m, n) of a column-major
// matrix with leading dimension `ldc`. Launched nowhere, it is correct only
// for callers whose `ldc` holds a whole column of the grid's threads; for
// a smaller `ldc`, columns overlap and two threads update one element.
__global__ void scale_add(float *C, const float *A, int ldc, int lda, float alpha, float beta) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y * blockDim.y + threadIdx.y;
  C[m + n * ldc] = C[m + n * ldc] * beta + alpha * A[m + n * lda];
}
