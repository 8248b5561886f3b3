// expect: drf
// options: --block-dim 256
// A frontier that stays in one block: thread 0 publishes the size of the
// next level after a barrier, and every thread leaves the loop on the same
// published size, so all of them pass the same barriers.
__global__ void expand_levels(const int *next_of, int *frontier, int *level_sizes) {
  __shared__ int size;
  __shared__ int cur[256];
  if (threadIdx.x == 0)
    size = level_sizes[blockIdx.x];
  while (1) {
    __syncthreads();
    if (size == 0)
      return;
    if (threadIdx.x < size)
      cur[threadIdx.x] = next_of[frontier[blockIdx.x * 256 + threadIdx.x]];
    __syncthreads();
    if (threadIdx.x < size)
      frontier[blockIdx.x * 256 + threadIdx.x] = cur[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
      size = size / 2;
  }
}
