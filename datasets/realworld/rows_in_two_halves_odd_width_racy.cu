// expect: racy
// rows_in_two_halves_odd_width_drf.cu without the skip: for an odd width
// the last thread's second cell is the first of the next row, which
// thread 0 writes in the next iteration.
#define UNROLL 16
__global__ void intermediates(const uint2 *input, unsigned int width,
                              unsigned int pitch, uchar4 *mapping) {
  unsigned int line = UNROLL * blockIdx.x;
  const uint2 *load = input + line * pitch + threadIdx.x;
  unsigned int store = line * width + threadIdx.x;
  for (int i = 0; i < UNROLL; i++) {
    uint2 v = *load;
    mapping[store] = make_uchar4(v.x, v.x >> 8, v.x >> 16, v.x >> 24);
    mapping[store + blockDim.x] = make_uchar4(v.y, v.y >> 8, v.y >> 16, v.y >> 24);
    load += pitch;
    store += width;
  }
}

void run(const uint2 *input, uchar4 *mapping, int width, int height) {
  intermediates<<<(height + UNROLL - 1) / UNROLL, (width + 1) / 2>>>(
      input, width, (width + 1) / 2, mapping);
}
