// expect: racy
// The mutant of `histogram_interleaved_columns_drf.cu` that clears its bins
// half a row apart (`j * THREADS / 2`): thread 0's second bin is the first
// bin of the thread whose column is 32 (thread 8).

#define THREADS 64
#define BINS 64

__global__ void column_histogram(unsigned int *partial, const unsigned int *words, unsigned int n) {
  __shared__ unsigned char s_count[THREADS * BINS];
  const unsigned int t = threadIdx.x;
  const unsigned int pos = ((t & ~(THREADS - 1)) << 0) | ((t & 15) << 2) | ((t & 48) >> 4);
  for (unsigned int j = 0; j < BINS; j++) s_count[pos + j * (THREADS / 2)] = 0;
  for (unsigned int k = blockIdx.x * THREADS + t; k < n; k += THREADS * gridDim.x) {
    unsigned int w = words[k];
    s_count[pos + ((w >> 2) & 63) * THREADS]++;
    s_count[pos + ((w >> 18) & 63) * THREADS]++;
  }
  __syncthreads();
  unsigned int sum = 0;
  for (unsigned int i = 0; i < THREADS; i++) sum += s_count[t * THREADS + i];
  partial[blockIdx.x * BINS + t] = sum;
}

void launch(unsigned int *partial, const unsigned int *words, unsigned int n) {
  column_histogram<<<32, THREADS>>>(partial, words, n);
}
