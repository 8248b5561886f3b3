// expect: racy
// options: --block-dim 256 --grid-dim 32
// Mutant of histogram_shared_atomic_drf.cu without the barrier after clearing
// the bins: a plain store local[b] = 0 can meet another thread's atomicAdd
// on the same bin (a plain and an atomic access conflict).

#define BINS 256

__global__ void histogram_missing_init_barrier(const unsigned char *data, unsigned int *hist, int n) {
  __shared__ unsigned int local[BINS];

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&hist[b], local[b]);
}
