// expect: drf
// Rows scaled four floats at a time: each thread loads and stores one
// float4 of its block's row. The vectors stay within their row only when
// the row length is a multiple of four, which the host asserts before the
// launch; drfscan takes what host code asserts of the arguments for the
// launch's own.
#include <assert.h>

__global__ void scale_rows(float *out, const float *in, int cols) {
  int c = threadIdx.x * 4;
  if (c >= cols)
    return;
  float4 v = *reinterpret_cast<const float4 *>(in + blockIdx.x * cols + c);
  v.x *= 2.0f;
  v.y *= 2.0f;
  v.z *= 2.0f;
  v.w *= 2.0f;
  *reinterpret_cast<float4 *>(out + blockIdx.x * cols + c) = v;
}

void scale(float *out, const float *in, int rows, int cols) {
  assert(cols % 4 == 0 && cols <= 1024);
  scale_rows<<<rows, 256>>>(out, in, cols);
}
