// expect: divergent
// block_stride_barriers_launched_block_drf.cu without its `__requires`:
// when `count` ends inside the block, the threads past it leave the loop
// and skip the barriers the others wait at. The report suggests `count %
// blockDim.x == 0`, naming the block the host launches with 64 threads.
__global__ void compact_in_block(int *items, int count) {
  __shared__ int staged[64];
  int tid = threadIdx.x;
  int step = blockDim.x * blockDim.y * blockDim.z;
  for (int i = 0; i + tid < count; i += step) {
    staged[tid] = items[i + tid];
    __syncthreads();
    if (tid == 0) {
      int kept = 0;
      for (int j = 0; j < step; j++)
        if (staged[j] >= 0) items[i + kept++] = staged[j];
    }
    __syncthreads();
  }
}

void compact(int *items, int count) { compact_in_block<<<1, 64>>>(items, count); }
