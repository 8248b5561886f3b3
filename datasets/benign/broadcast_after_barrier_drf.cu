// expect: drf
// options: --block-dim 128
// All threads publish the same block-wide constant after a barrier.
__global__ void publish(int *out, int base) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x] = base + 2 * 64;
}
