// expect: drf
// Half values converted with casts (`(float)a[i].x`): the toolkit's
// conversion operators are member functions of the value, which read
// `*this`; they are calls on the value, not accesses through a pointer.
#include <cuda_fp16.h>
__global__ void dot_parts(const half2 *a, const half2 *b, float2 *out, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    float2 v;
    v.x = (float)a[i].x * (float)b[i].x;
    v.y = (float)a[i].y * (float)b[i].y;
    out[i] = v;
  }
}
