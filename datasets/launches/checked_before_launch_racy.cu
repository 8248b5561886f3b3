// expect: racy
// checked_before_launch_drf.cu where the host only refuses a width more
// than twice the pitch: a row may reach into the next.
#include <stdio.h>

__global__ void copy_pitched(float *dst, const float *src, int width, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < width)
    dst[y * pitch + x] = src[y * width + x];
}

int copy_image(float *dst, const float *src, int width, int height, int pitch) {
  if (width > 2 * pitch || width <= 0) {
    fprintf(stderr, "pitch %d too small for width %d\n", pitch, width);
    return 1;
  }
  dim3 grid((width + 127) / 128, height);
  copy_pitched<<<grid, 128>>>(dst, src, width, pitch);
  return 0;
}
