// expect: racy
// options: --block-dim 256
// shared_merge_halving_stride_drf.cu with the caller's stride only bounded,
// not required to be a power of two: from stride 3 the first step's pairs
// overlap (threads 1 and 2 both take keys 2 and 5). The race is possible,
// and the report suggests the power of two that removes it.
#define KEYS 512

__global__ void merge_tail(unsigned *keys, unsigned stride, unsigned up) {
  __requires(stride <= KEYS / 2);
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
