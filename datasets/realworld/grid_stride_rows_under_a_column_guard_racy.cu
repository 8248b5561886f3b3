// expect: racy
// The conversion of its drf twin with the guard off by one: the column
// `width` of one row is the first cell of the next, written by another
// block with another value.
__global__ void widen_rows(const short *src, float *dst, int width, int rows) {
  const int col = blockDim.x * blockIdx.x + threadIdx.x;
  if (col > width) {
    return;
  }
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    dst[row * width + col] = (float)src[row * width + col] + threadIdx.x;
  }
}
