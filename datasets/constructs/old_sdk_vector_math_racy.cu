// expect: racy
// old_sdk_vector_math_drf.cu accumulating into one direction per column:
// the threads of a column add to the same element.
#include <cutil_math.h>

__global__ void directions(float3 *dirs, float3 eye, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float3 pixel = make_float3(x - 0.5f * width, y - 0.5f * height, 1.0f);
  float3 d = normalize(pixel - eye);
  dirs[x] += d * fmaxf(dot(d, make_float3(0.0f, 0.0f, 1.0f)), 0.0f);
}

void trace(float3 *dirs, float3 eye, int width, int height) {
  dim3 block(16, 8);
  dim3 grid((width + 15) / 16, (height + 7) / 8);
  directions<<<grid, block>>>(dirs, eye, width, height);
}
