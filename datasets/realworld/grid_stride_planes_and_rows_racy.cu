// expect: racy
// The copy of its drf twin with the planes laid out `width` rows apart
// instead of `rows`: when a plane has more rows than the width, plane
// 1's first row is a row of plane 0, written by another block.
__global__ void copy_planes(const float *src, float *dst, long width, long rows,
                            long planes) {
  const long col = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (col >= width) {
    return;
  }
  for (long row = blockIdx.y; row < rows; row += gridDim.y) {
    for (long plane = blockIdx.z; plane < planes; plane += gridDim.z) {
      const long at = (plane * width + row) * width + col;
      dst[at] = src[at] * 0.5f + blockIdx.y;
    }
  }
}
