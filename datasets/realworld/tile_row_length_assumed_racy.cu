// expect: racy
// A register-tiled store: each block of 16 x 8 threads writes a tile 128
// columns wide (one column per thread, by its flattened id) and 16 rows
// deep, rows `ldc` apart. Tiles of neighbouring blocks overlap unless a row
// holds all gridDim.x tiles, which the kernel does not say: the race is
// possible, with the suggested `__requires(ldc >= 128 * gridDim.x)`.
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

__global__ void tile_store(float *C, int ldc, float v) {
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
