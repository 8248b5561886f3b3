// expect: racy
// asserted_vector_rows_drf.cu where the host asserts only an even row
// length: with two floats to a row, a block's float4 reaches into the
// next block's row.
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
  assert(cols % 2 == 0 && cols <= 1024);
  scale_rows<<<rows, 256>>>(out, in, cols);
}
