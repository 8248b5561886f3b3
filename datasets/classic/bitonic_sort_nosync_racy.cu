// expect: racy
// options: --block-dim 512 --grid-dim 16
// Mutant of bitonic_sort_drf.cu with the barrier after the inner loop instead
// of inside it: consecutive j steps overlap (step j = 2 has thread 0 swap
// s[0], s[2]; step j = 1 has thread 2 swap s[2], s[3]).

#define N 512

__global__ void bitonic_sort_nosync(float *data) {
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
    }
    __syncthreads();
  }

  data[base + tid] = s[tid];
}
