// expect: drf
// A 256-bin histogram: a block's shared bins are cleared, filled with
// atomics by a grid-stride loop over the input, and added into the global
// bins with atomics.
#define BINS 256
__global__ void histogram(const unsigned char *in, unsigned *out, int n) {
  __shared__ unsigned h[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    h[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    atomicAdd(&out[i], h[i]);
}
