// expect: racy
// rank_slots of its drf twin with a table of 512 slots: a 32 x 32 block,
// which a GPU runs, wraps around, and threads of ranks r and r + 512
// write one slot.
__global__ void rank_slots(int *out) {
  __requires(blockDim.x == blockDim.y);
  __shared__ int slots[512];
  const int rank = threadIdx.y * blockDim.x + threadIdx.x;
  slots[rank % 512] = rank;
  __syncthreads();
  out[blockIdx.x * 1024 + rank % 1024] = slots[(rank + 1) % 512];
}

