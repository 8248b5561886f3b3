// expect: drf
// Rows addressed through byte strides added one at a time, as tensor
// libraries do (`(char *)dst + i1 * nb1 + i2 * nb2`, then a cast back to
// `float *`): each step moves the pointer by a byte count no cell size is
// known to divide, and only their sum, viewed as a `float *`, is aligned.
// The destination's strides are computed from the row length, so each
// block's row is its own; the source's strides are any, as it is only read.
__global__ void scale_rows(const float *src, float *dst, int ne0, int ne1,
                           size_t nb01, size_t nb02) {
  const int i1 = blockIdx.x;
  const int i2 = blockIdx.y;
  const size_t nb1 = ne0 * sizeof(float);
  const size_t nb2 = ne1 * nb1;
  float *dst_row = (float *)((char *)dst + i1 * nb1 + i2 * nb2);
  const float *src_row = (const float *)((const char *)src + i1 * nb01 + i2 * nb02);
  for (int i0 = threadIdx.x; i0 < ne0; i0 += blockDim.x)
    dst_row[i0] = 2.0f * src_row[i0];
}

void run(const float *src, float *dst, int ne0, int ne1, int ne2, size_t nb01, size_t nb02) {
  scale_rows<<<dim3(ne1, ne2), 256>>>(src, dst, ne0, ne1, nb01, nb02);
}
