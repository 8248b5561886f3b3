// expect: drf
// `tile_row_length_assumed_racy.cu` with the row length it needs written
// down: a row holds every block's 128-wide tile.
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

__global__ void tile_store(float *C, int ldc, float v) {
  __requires(ldc >= TILE_M * gridDim.x);
  int mid = threadIdx.y * blockDim.x + threadIdx.x;
  int m = blockIdx.x * TILE_M + mid;
  int t = ldc * blockIdx.y * TILE_N + m;
  for (int i = 0; i < TILE_N; i++)
    C[t + i * ldc] = v * i;
}

void run(float *C, int ldc, int m, int n) {
  dim3 grid(m / TILE_M, n / TILE_N), threads(TILE_N, TILE_TB_HEIGHT);
  tile_store<<<grid, threads>>>(C, ldc, 1.0f);
}
