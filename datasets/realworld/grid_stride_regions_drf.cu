// expect: drf
// Clearing two regions of a buffer with grid-stride loops, the second
// starting where the first ends: each loop's trip count depends on the
// thread's own start.
__global__ void clear_regions(unsigned *buffer, unsigned *copy, unsigned low, unsigned mid) {
  unsigned start = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = start; i < low; i += stride) {
    copy[i] = buffer[i];
    buffer[i] = 0;
  }
  for (unsigned i = low + start; i < low + mid; i += stride) {
    copy[i] = buffer[i] >> 1;
    buffer[i] = 0;
  }
}
