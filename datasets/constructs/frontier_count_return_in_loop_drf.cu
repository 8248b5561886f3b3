// expect: drf
// A breadth-first search done by one block, level by level, as benchmark
// suites write it: thread 0 clears the next frontier's length, each thread
// appends the neighbours it finds with an atomic add, and after a barrier
// the whole block reads the length and returns together when it is zero.
// The length is read between two barriers where no thread writes it, so
// every thread reads the same value and the barrier after the return does
// not diverge; the next level's reset comes after that barrier.
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
    __syncthreads();
  }
}

void search(const int *offsets, const int *edges, int *cost, unsigned *next,
            unsigned *length) {
  bfs_levels<<<1, 512>>>(offsets, edges, cost, next, length);
}
