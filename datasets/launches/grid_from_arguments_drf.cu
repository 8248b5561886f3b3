// expect: drf
// A matrix product without bounds checks, as many samples write it: the
// host sizes the grid from the matrix widths it passes to the kernel
// (`dim3 grid(M / 16, N / 16)`), so the tiles of the grid never pass the
// end of a row. With the grid free, block (1, 0) of a grid wider than the
// row would write the next row's first cells.
#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int N, int M, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (int i = 0; i < K; ++i)
    sum += A[row * K + i] * B[i * M + col];
  C[row * M + col] = sum;
}

void run(const float *A, const float *B, float *C, int N, int M, int K) {
  dim3 block(TILE, TILE);
  dim3 grid(M / block.x, N / block.y);
  matmul<<<grid, block>>>(A, B, C, N, M, K);
}
