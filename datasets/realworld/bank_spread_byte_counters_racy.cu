// expect: racy
// bank_spread_byte_counters_drf.cu with the low bits moved up by one
// instead of two: they now overlap the two bits moved down, so threads 1
// and 32 get the same column and count into the same bytes.
#define BANK_GROUP 16
#define COUNTER_THREADS 64
#define BINS 64

__global__ void count_bytes(unsigned *partial, const unsigned *words, int n) {
  __shared__ unsigned char counters[BINS * COUNTER_THREADS];
  const unsigned column = (threadIdx.x & ~(BANK_GROUP * 4 - 1)) |
                          ((threadIdx.x & (BANK_GROUP - 1)) << 1) |
                          ((threadIdx.x & (BANK_GROUP * 3)) >> 4);
  for (int b = 0; b < BINS; ++b) {
    counters[b * COUNTER_THREADS + threadIdx.x] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const unsigned w = words[i];
    counters[((w >> 2) & (BINS - 1)) * COUNTER_THREADS + column]++;
    counters[((w >> 10) & (BINS - 1)) * COUNTER_THREADS + column]++;
  }
  __syncthreads();
  unsigned sum = 0;
  for (int k = 0; k < COUNTER_THREADS; ++k) {
    sum += counters[threadIdx.x * COUNTER_THREADS + (k + threadIdx.x) % COUNTER_THREADS];
  }
  partial[blockIdx.x * BINS + threadIdx.x] = sum;
}

void count_all(unsigned *partial, const unsigned *words, int n) {
  count_bytes<<<128, COUNTER_THREADS>>>(partial, words, n);
}
