// expect: drf
// A block-stride loop with barriers inside, launched with blocks of 64
// threads, over a size the kernel requires to be whole blocks of that
// width (the `__requires` the report of its divergent twin suggests):
// every thread makes the same number of trips.
__global__ void compact_in_block(int *items, int count) {
  __requires(count % blockDim.x == 0);
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
