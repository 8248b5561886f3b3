// expect: drf
// A copy of a tensor of `planes` planes of `rows` rows of `width` cells,
// as tensor libraries write it: columns across the grid's x dimension,
// rows and planes in grid-stride loops over y and z. Each loop's row or
// plane stays below its bound, so the flat index is a number in mixed
// radix (width, then rows) whatever the grid's shape.
__global__ void copy_planes(const float *src, float *dst, long width, long rows,
                            long planes) {
  const long col = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (col >= width) {
    return;
  }
  for (long row = blockIdx.y; row < rows; row += gridDim.y) {
    for (long plane = blockIdx.z; plane < planes; plane += gridDim.z) {
      const long at = (plane * rows + row) * width + col;
      dst[at] = src[at] * 0.5f + blockIdx.y;
    }
  }
}
