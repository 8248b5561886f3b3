// expect: racy
// half_conversions_drf.cu storing every product to the block's first cell.
#include <cuda_fp16.h>
__global__ void dot_parts(const half2 *a, const half2 *b, float2 *out, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    float2 v;
    v.x = (float)a[i].x * (float)b[i].x;
    v.y = (float)a[i].y * (float)b[i].y;
    out[blockIdx.x] = v;
  }
}
