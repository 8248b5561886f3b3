// expect: divergent
// options: --block-dim 256
// published_frontier_size_drf.cu where each thread halves a size of its
// own: threads leave the loop after different numbers of barriers.
__global__ void expand_levels(const int *next_of, int *frontier, int *level_sizes) {
  __shared__ int cur[256];
  int size = level_sizes[blockIdx.x * 256 + threadIdx.x];
  while (1) {
    __syncthreads();
    if (size == 0)
      return;
    if (threadIdx.x < size)
      cur[threadIdx.x] = next_of[frontier[blockIdx.x * 256 + threadIdx.x]];
    __syncthreads();
    if (threadIdx.x < size)
      frontier[blockIdx.x * 256 + threadIdx.x] = cur[threadIdx.x];
    size = size / 2;
  }
}
