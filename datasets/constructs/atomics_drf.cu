// expect: drf
// options: --block-dim 256 --grid-dim 16
// Atomics never race with each other: shared counters updated by every
// thread, then one thread per block folds them into global statistics with
// more atomics (stats[0] count, stats[1] max, stats[2] min, stats[3] sum).

__global__ void statistics(const int *in, int *stats) {
  __shared__ int positives;
  __shared__ int largest;
  int g = blockIdx.x * blockDim.x + threadIdx.x;

  if (threadIdx.x == 0) {
    positives = 0;
    largest = 0;
  }
  __syncthreads();

  int v = in[g];
  atomicAdd(&positives, v > 0 ? 1 : 0);
  atomicMax(&largest, v);
  atomicMin(&stats[2], v);
  atomicAdd(&stats[3], v);
  __syncthreads();

  if (threadIdx.x == 0) {
    atomicAdd(&stats[0], positives);
    atomicMax(&stats[1], largest);
  }
}
