// expect: drf
// options: --block-dim 128 --grid-dim 16
// Short-circuit &&: the shared flag is read only when tid == 0, i.e. only by
// the thread that wrote it, so there is no race although no barrier
// separates the write from the read.

__global__ void and_guard(const int *ready, int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = ready[blockIdx.x];
  if (threadIdx.x == 0 && flag > 0)
    out[blockIdx.x] = 1;
}
