// expect: racy
// The same level loop without the barrier that ends a level: thread 0
// clears the length for the next level while other threads still compare
// their id with it to take their node from the queue.
__global__ void bfs_levels(const int *offsets, const int *edges, int *cost,
                           unsigned *next, unsigned *frontier_length) {
  __shared__ unsigned queue[512];
  __shared__ unsigned queue_length;
  unsigned tid = threadIdx.x;
  unsigned node = tid;
  while (1) {
    if (tid == 0)
      queue_length = 0;
    __syncthreads();
    for (int e = offsets[node]; e < offsets[node + 1]; e++) {
      unsigned at = atomicAdd(&queue_length, 1u);
      if (at < 512)
        queue[at] = edges[e];
    }
    __syncthreads();
    if (queue_length == 0) {
      if (tid == 0)
        frontier_length[0] = 0;
      return;
    }
    if (tid < queue_length && tid < 512)
      node = queue[tid];
  }
}

void search(const int *offsets, const int *edges, int *cost, unsigned *next,
            unsigned *length) {
  bfs_levels<<<1, 512>>>(offsets, edges, cost, next, length);
}
