// expect: drf
// A kernel written for square blocks of any side: it requires the block's
// width and height equal, and nothing else. Each thread
// takes a slot of a 1024-slot table by its rank in the block, modulo the
// table's size: no two threads of a block a GPU runs (at most 1024
// threads, so a side of at most 32) share one. Only a 64 x 64 block,
// which no GPU runs, would wrap around.
__global__ void rank_slots(int *out) {
  __requires(blockDim.x == blockDim.y);
  __shared__ int slots[1024];
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  slots[rank % 1024] = rank;
  __syncthreads();
  out[blockIdx.x * 1024 + rank % 1024] = slots[(rank + 1) % 1024];
}

