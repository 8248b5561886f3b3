// expect: racy
// bitonic.cu without the barrier between compare-and-swap steps: a thread
// reads a partner's key while the partner's own pair still writes it.
#define SORT_N 1024
__global__ void bitonic_sort_unsynced(int *data) {
  __shared__ int s[SORT_N];
  unsigned tid = threadIdx.x;
  s[tid] = data[blockIdx.x * SORT_N + tid];
  __syncthreads();
  for (unsigned k = 2; k <= SORT_N; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        int a = s[tid], b = s[ixj];
        bool up = (tid & k) == 0;
        if ((a > b) == up) {
          s[tid] = b;
          s[ixj] = a;
        }
      }
    }
  }
  __syncthreads();
  data[blockIdx.x * SORT_N + tid] = s[tid];
}

void sort_blocks(int *data, int blocks) {
  bitonic_sort_unsynced<<<blocks, SORT_N>>>(data);
}
