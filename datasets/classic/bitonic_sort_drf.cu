// expect: drf
// options: --block-dim 512 --grid-dim 16
// Bitonic sort of 512 keys per block in shared memory, one thread per key.
// In step (k, j) only the thread with the lower id of each pair
// (tid, tid ^ j) compares and swaps, and every step ends with a barrier.

#define N 512

__global__ void bitonic_sort(float *data) {
  __shared__ float s[N];
  unsigned int tid = threadIdx.x;
  unsigned int base = blockIdx.x * N;

  s[tid] = data[base + tid];
  __syncthreads();

  for (unsigned int k = 2; k <= N; k <<= 1) {
    for (unsigned int j = k >> 1; j > 0; j >>= 1) {
      unsigned int ixj = tid ^ j;
      if (ixj > tid) {
        bool ascending = (tid & k) == 0;
        float a = s[tid];
        float b = s[ixj];
        if ((a > b) == ascending) {
          s[tid] = b;
          s[ixj] = a;
        }
      }
      __syncthreads();
    }
  }

  data[base + tid] = s[tid];
}
