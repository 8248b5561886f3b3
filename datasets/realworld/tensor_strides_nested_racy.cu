// expect: racy
// A tensor-library copy kernel: one block per row of a 3-D tensor, the
// rows placed by strides the caller passes (`nb1`, `nb2`, `nb3`, in cells,
// innermost first, as such libraries list them). Strides that let rows
// overlap (a zero stride, a plane shorter than its rows) make two blocks
// write one cell: a race only for such strides, reported as possible with
// the nesting that keeps the rows apart.
__global__ void copy_rows(const float *src, float *dst, long ne00, long ne01,
                          long ne02, long ne03, long nb1, long nb2, long nb3) {
  const long i3 = blockIdx.z;
  const long i2 = blockIdx.y;
  const long i1 = blockIdx.x;
  if (i3 >= ne03 || i2 >= ne02 || i1 >= ne01) {
    return;
  }
  const float *src_row = src + ((i3 * ne02 + i2) * ne01 + i1) * ne00;
  float *dst_row = dst + i1 * nb1 + i2 * nb2 + i3 * nb3;
  for (long i0 = threadIdx.x; i0 < ne00; i0 += blockDim.x) {
    dst_row[i0] = src_row[i0];
  }
}

void copy(const float *src, float *dst, long ne00, long ne01, long ne02,
          long ne03, long nb1, long nb2, long nb3) {
  dim3 grid(ne01, ne02, ne03);
  copy_rows<<<grid, 128>>>(src, dst, ne00, ne01, ne02, ne03, nb1, nb2, nb3);
}
