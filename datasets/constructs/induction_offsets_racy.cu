// expect: racy
// `induction_offsets_drf.cu` stepping one cell short of a row: a thread's
// last cell of one row is the next thread's first of the next.

__global__ void scale_rows(float *dst, const float *src, int rows) {
  int offset = blockIdx.x * rows * blockDim.x;
  for (int r = 0; r < rows; r++) {
    dst[offset + threadIdx.x] = src[offset + threadIdx.x] * 2.0f;
    offset += blockDim.x - 1;
  }
}
