// expect: drf
// options: --block-dim 256 --grid-dim 32
// 256-bin histogram: each block clears a private histogram in shared memory,
// counts its grid-stride share of the input with shared atomics, then adds
// the private bins into the global histogram with global atomics.

#define BINS 256

__global__ void histogram_shared_atomic(const unsigned char *data, unsigned int *hist, int n) {
  __shared__ unsigned int local[BINS];

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&hist[b], local[b]);
}
