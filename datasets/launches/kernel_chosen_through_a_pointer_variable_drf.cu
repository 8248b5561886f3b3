// expect: drf
// Host code that picks one of several kernels into a function pointer in a
// switch, compares it with the kernels it may hold, and launches through
// it. Every kernel the pointer may hold is launched with 32 x 8 threads, and
// each thread updates rows `ty`, `ty + 8`, `ty + 16` and `ty + 24` of a
// 32 x 32 tile in place; a block as tall as the tile would have two threads
// update one row.
#define TILE 32
#define ROWS 8

__global__ void scale_rows(float *data, const float *gain, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS)
    data[(y + r) * width + x] *= gain[y + r];
}

__global__ void sum_columns(float *out, const float *gain, int width, int height) {
  __shared__ float acc[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) {
    acc[threadIdx.y + r][threadIdx.x] = out[(y + r) * width + x];
    acc[threadIdx.y + r][threadIdx.x] *= gain[y + r];
  }
  __syncthreads();
  if (threadIdx.y == 0) {
    float s = 0.0f;
    for (int r = 0; r < TILE; r++)
      s += acc[r][threadIdx.x];
    out[blockIdx.y * TILE * width + x] = s;
  }
}

int run_all(float *data, const float *gain, int width, int height) {
  void (*kernel)(float *, const float *, int, int);
  dim3 grid(width / TILE, height / TILE);
  dim3 threads(TILE, ROWS);
  int scaled = 0;
  for (int k = 0; k < 2; k++) {
    switch (k) {
    case 0:
      kernel = &scale_rows;
      break;
    default:
      kernel = sum_columns;
      break;
    }
    if (kernel == &scale_rows)
      scaled++;
    kernel<<<grid, threads>>>(data, gain, width, height);
  }
  return scaled;
}
