// expect: racy
// Each block counts its own hits in a shared counter, and every block then
// writes from slot 0 of one global output: slots repeat across blocks.
__global__ void enqueue_hits_per_block(const int *keys, int key, int *queue, int n) {
  __shared__ unsigned tail;
  if (threadIdx.x == 0)
    tail = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keys[i] == key) {
    unsigned slot = atomicAdd(&tail, 1u);
    queue[slot] = i;
  }
}
