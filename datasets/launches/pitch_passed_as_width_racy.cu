// expect: racy
// As `pitch_passed_as_width_drf.cu`, but the grid rounds the width up to
// whole blocks: when it is not a multiple of 128, the last block of a row
// writes the first cells of the next row, which that row's first block
// writes too.
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
  dim3 grid((w + STEPS * BX - 1) / (STEPS * BX), h / 4);
  mirror_rows<<<grid, block>>>(d, s, w, w);
}
