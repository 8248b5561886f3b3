// expect: drf
// A type conversion over a matrix of `rows` rows of `width` cells: the
// grid's x dimension covers a row's columns, guarded by the width, and
// its y dimension strides over the rows. Neither the width nor the grid
// is fixed, so the column's place in the row comes from the guard alone:
// a column below `width` never reaches the next row, whatever the grid.
__global__ void widen_rows(const short *src, float *dst, int width, int rows) {
  const int col = blockDim.x * blockIdx.x + threadIdx.x;
  if (col >= width) {
    return;
  }
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    dst[row * width + col] = (float)src[row * width + col] + threadIdx.x;
  }
}
