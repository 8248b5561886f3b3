// expect: racy
// options: --block-dim 256 --grid-dim 32
// Mutant of histogram_shared_atomic_drf.cu counting with a plain increment:
// two threads whose input bytes are equal update the same bin (the bin index
// comes from memory, so the race is possible rather than certain).

#define BINS 256

__global__ void histogram_plain_increment(const unsigned char *data, unsigned int *hist, int n) {
  __shared__ unsigned int local[BINS];

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    local[data[i]]++;
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&hist[b], local[b]);
}
