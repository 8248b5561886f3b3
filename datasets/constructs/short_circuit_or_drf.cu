// expect: drf
// options: --block-dim 128 --grid-dim 16
// Short-circuit ||: threads with tid != 0 never evaluate flag > 0, so the flag
// is again read only by thread 0, which wrote it.

__global__ void or_guard(const int *ready, int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = ready[blockIdx.x];
  if (threadIdx.x != 0 || flag > 0)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
