// expect: racy
// options: --block-dim 256
// requires_pow2_stride_drf.cu without its `__requires(__is_pow2(stride))`:
// for a stride that is no power of two the mask `stride - 1` is no
// remainder, and two threads' pairs overlap (with stride 3, threads 1 and 2
// both take keys 2 and 5). The race is possible, and the report suggests
// the power of two that removes it.

__global__ void merge_step(unsigned *keys, unsigned stride, unsigned up) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * i - (i & (stride - 1));
  unsigned a = keys[pos], b = keys[pos + stride];
  if ((a > b) == (up != 0)) {
    keys[pos] = b;
    keys[pos + stride] = a;
  }
}
