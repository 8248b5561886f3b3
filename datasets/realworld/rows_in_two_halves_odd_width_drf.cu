// expect: drf
// A histogram's intermediate pass as Parboil writes it: rows of `width`
// cells, each written in two halves by a block of `(width + 1) / 2`
// threads, the second half at `tid + blockDim.x`; for an odd width the
// last thread has no second cell and skips it. No guard says the second
// column stays below `width`: the launch and the skip imply it, which a
// query for one thread shows before the race query is asked.
#define UNROLL 16
__global__ void intermediates(const uint2 *input, unsigned int width,
                              unsigned int pitch, uchar4 *mapping) {
  unsigned int line = UNROLL * blockIdx.x;
  const uint2 *load = input + line * pitch + threadIdx.x;
  unsigned int store = line * width + threadIdx.x;
  bool skip = (width % 2) && (threadIdx.x == (blockDim.x - 1));
  for (int i = 0; i < UNROLL; i++) {
    uint2 v = *load;
    mapping[store] = make_uchar4(v.x, v.x >> 8, v.x >> 16, v.x >> 24);
    if (!skip)
      mapping[store + blockDim.x] = make_uchar4(v.y, v.y >> 8, v.y >> 16, v.y >> 24);
    load += pitch;
    store += width;
  }
}

void run(const uint2 *input, uchar4 *mapping, int width, int height) {
  intermediates<<<(height + UNROLL - 1) / UNROLL, (width + 1) / 2>>>(
      input, width, (width + 1) / 2, mapping);
}
