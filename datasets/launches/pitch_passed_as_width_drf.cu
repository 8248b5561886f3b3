// expect: drf
// A row filter in the style of the SDK's separable convolution: each block
// of 16 x 4 threads handles 128 columns of 4 rows, rows `pitch` apart. The
// host passes the width as the pitch and sizes the grid as `w / 8 / 16`:
// no block reaches past the end of a row.
#define BX 16
#define STEPS 8

__global__ void mirror_rows(float *dst, const float *src, int w, int pitch) {
  __shared__ float tile[4][STEPS * BX];
  int baseX = blockIdx.x * STEPS * BX + threadIdx.x;
  int baseY = blockIdx.y * 4 + threadIdx.y;
  src += baseY * pitch + baseX;
  dst += baseY * pitch + baseX;
  for (int i = 0; i < STEPS; i++)
    tile[threadIdx.y][threadIdx.x + i * BX] = src[i * BX];
  __syncthreads();
  for (int i = 0; i < STEPS; i++)
    dst[i * BX] = tile[threadIdx.y][STEPS * BX - 1 - (threadIdx.x + i * BX)];
}

void mirror(float *d, const float *s, int w, int h) {
  dim3 block(BX, 4);
  dim3 grid(w / STEPS / BX, h / 4);
  mirror_rows<<<grid, block>>>(d, s, w, w);
}
