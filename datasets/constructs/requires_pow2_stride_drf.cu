// expect: drf
// One merge step of a bitonic sort over global memory: each thread orders
// the pair `pos` and `pos + stride`, with `pos = 2 * i - (i & (stride - 1))`.
// The pairs are disjoint only when the stride is a power of two, which the
// kernel requires: under that precondition the mask is a remainder.

__global__ void merge_step(unsigned *keys, unsigned stride, unsigned up) {
  __requires(__is_pow2(stride));
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * i - (i & (stride - 1));
  unsigned a = keys[pos], b = keys[pos + stride];
  if ((a > b) == (up != 0)) {
    keys[pos] = b;
    keys[pos + stride] = a;
  }
}
