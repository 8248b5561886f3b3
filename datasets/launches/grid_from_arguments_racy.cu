// expect: racy
// As `grid_from_arguments_drf.cu`, but the grid rounds the width up
// (`(M + 15) / 16`) while the kernel has no bounds check: when M is not a
// multiple of 16, the last tile of a row runs into the next row, where the
// first tile of that row writes too.
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
  dim3 grid((M + TILE - 1) / block.x, (N + TILE - 1) / block.y);
  matmul<<<grid, block>>>(A, B, C, N, M, K);
}
