// expect: racy
// options: --block-dim 128 --grid-dim 16
// The || is the wrong way round: every thread except 0 reads the flag that
// thread 0 writes in the same barrier interval.

__global__ void or_guard_reversed(const int *ready, int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = ready[blockIdx.x];
  if (threadIdx.x == 0 || flag > 0)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
