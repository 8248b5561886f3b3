// expect: drf
// Bitonic sort of up to 1024 keys per block, half as many threads, each
// comparing a pair: the merge size doubles up to a length known at run
// time, and its strides halve from half the size. A thread's pair is
// `2 * t - (t & (stride - 1))` and that plus the stride: the mask of a
// power of two less one is a remainder, and the pairs of one stride are
// disjoint whatever the stride.

#define KEYS 1024U

__device__ void order(unsigned *a, unsigned *b, bool up) {
  if ((*a > *b) == up) {
    unsigned t = *a;
    *a = *b;
    *b = t;
  }
}

__global__ void sort_blocks(unsigned *keys, unsigned length) {
  __shared__ unsigned s[KEYS];
  unsigned *base = keys + blockIdx.x * KEYS;
  s[threadIdx.x] = base[threadIdx.x];
  s[threadIdx.x + KEYS / 2] = base[threadIdx.x + KEYS / 2];
  for (unsigned size = 2; size < length; size <<= 1) {
    bool up = (threadIdx.x & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      order(&s[pos], &s[pos + stride], up);
    }
  }
  __syncthreads();
  base[threadIdx.x] = s[threadIdx.x];
  base[threadIdx.x + KEYS / 2] = s[threadIdx.x + KEYS / 2];
}

void sort(unsigned *keys, unsigned batches, unsigned length) {
  sort_blocks<<<batches, KEYS / 2>>>(keys, length);
}
