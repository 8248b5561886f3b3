// expect: divergent
// The same level loop with the reset of the frontier's length moved up to
// just after the test: thread 0 clears it while the other threads of the
// block may still be reading it for the test, with no barrier between. A
// thread that reads the cleared length returns while thread 0 goes on to
// the barrier at the end of the level.
__global__ void bfs_levels(const int *offsets, const int *edges, int *cost,
                           unsigned *next, unsigned *frontier_length) {
  __shared__ unsigned queue[512];
  __shared__ unsigned queue_length;
  unsigned tid = threadIdx.x;
  unsigned node = tid;
  if (tid == 0)
    queue_length = 0;
  __syncthreads();
  while (1) {
    for (int e = offsets[node]; e < offsets[node + 1]; e++) {
      unsigned at = atomicAdd(&queue_length, 1u);
      if (at < 512)
        queue[at] = edges[e];
    }
    __syncthreads();
    unsigned found = queue_length;
    if (found == 0) {
      if (tid == 0)
        frontier_length[0] = 0;
      return;
    }
    if (tid == 0)
      queue_length = 0;
    if (tid < found && tid < 512)
      node = queue[tid];
    __syncthreads();
  }
}

void search(const int *offsets, const int *edges, int *cost, unsigned *next,
            unsigned *length) {
  bfs_levels<<<1, 512>>>(offsets, edges, cost, next, length);
}
