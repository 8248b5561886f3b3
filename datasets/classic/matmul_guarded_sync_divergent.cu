// expect: divergent
// options: --block-dim 16,16 --grid-dim 4,4
// Tiled matrix product whose bounds check wraps the whole tile loop: when n
// is not a multiple of 16, the threads outside the matrix skip the barriers
// that their block-mates wait at.

#define T 16

__global__ void matmul_guarded_sync(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;

  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
      As[ty][tx] = A[row * n + k0 + tx];
      Bs[ty][tx] = B[(k0 + ty) * n + col];
      __syncthreads();
      for (int k = 0; k < T; k++)
        acc += As[ty][k] * Bs[k][tx];
      __syncthreads();
    }
    C[row * n + col] = acc;
  }
}
