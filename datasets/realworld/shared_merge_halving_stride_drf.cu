// expect: drf
// options: --block-dim 256
// The last steps of a bitonic merge in shared memory: the stride a caller
// passes halves down to 1, a barrier before each step, and each of the 256
// threads orders the pair `2 * t - (t & (stride - 1))` and that plus the
// stride of the block's 512 keys. The caller's stride is a power of two of
// at most 256 (`__requires`), so every stride the loop takes is one too and
// the pairs of one step are disjoint.
#define KEYS 512

__global__ void merge_tail(unsigned *keys, unsigned stride, unsigned up) {
  __requires(__is_pow2(stride) && stride <= KEYS / 2);
  __shared__ unsigned s[KEYS];
  unsigned *block = keys + blockIdx.x * KEYS;
  s[threadIdx.x] = block[threadIdx.x];
  s[threadIdx.x + KEYS / 2] = block[threadIdx.x + KEYS / 2];
  for (; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned a = s[pos], b = s[pos + stride];
    if ((a > b) == (up != 0)) {
      s[pos] = b;
      s[pos + stride] = a;
    }
  }
  __syncthreads();
  block[threadIdx.x] = s[threadIdx.x];
  block[threadIdx.x + KEYS / 2] = s[threadIdx.x + KEYS / 2];
}
