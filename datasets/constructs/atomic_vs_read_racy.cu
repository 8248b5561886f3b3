// expect: racy
// options: --block-dim 256 --grid-dim 16
// A plain read of a counter that other threads update atomically: an atomic
// and a plain access to the same cell conflict.

__global__ void ticket(int *counter, int *flags, int limit) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counter[0], 1);
  if (counter[0] > limit)
    flags[g] = 1;
}
