// expect: drf
// options: --block-dim 16,16 --grid-dim 16,16 --param n=256
// Tiled n x n matrix product C = A * B: per step each thread loads one cell
// of an A tile and a B tile, a barrier, the tile products, a barrier before
// the tiles are overwritten.

#define T 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  float acc = 0.0f;

  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * n + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();

    for (int k = 0; k < T; k++)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }

  if (row < n && col < n)
    C[row * n + col] = acc;
}
