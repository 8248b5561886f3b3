// expect: drf
// A work queue over the whole grid: one global counter hands every thread
// that found an item its own slot of the output.
__global__ void enqueue_hits(const int *keys, int key, int *queue, unsigned *tail, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key) {
    unsigned slot = atomicAdd(tail, 1u);
    queue[slot] = i;
  }
}
