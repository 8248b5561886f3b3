// expect: racy
// The mutant of `requires_pow2_stride_drf.cu` whose partner is one past the
// stride: it is another thread's first key.

__global__ void merge_step(unsigned *keys, unsigned stride, unsigned up) {
  __requires(__is_pow2(stride));
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * i - (i & (stride - 1));
  unsigned a = keys[pos], b = keys[pos + stride + 1];
  if ((a > b) == (up != 0)) {
    keys[pos] = b;
    keys[pos + stride + 1] = a;
  }
}
