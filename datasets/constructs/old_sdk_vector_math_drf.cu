// expect: drf
// Ray directions with the old SDK's vector arithmetic header, which no
// toolkit ships any more (drfscan brings a fallback of its own): each
// thread normalises its own pixel's direction.
#include <cutil_math.h>

__global__ void directions(float3 *dirs, float3 eye, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float3 pixel = make_float3(x - 0.5f * width, y - 0.5f * height, 1.0f);
  float3 d = normalize(pixel - eye);
  dirs[y * width + x] = d * fmaxf(dot(d, make_float3(0.0f, 0.0f, 1.0f)), 0.0f);
}

void trace(float3 *dirs, float3 eye, int width, int height) {
  dim3 block(16, 8);
  dim3 grid((width + 15) / 16, (height + 7) / 8);
  directions<<<grid, block>>>(dirs, eye, width, height);
}
