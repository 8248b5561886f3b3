// expect: racy
// options: --block-dim 128 --grid-dim 8
// Every `extern __shared__` array is the block's one dynamic shared
// memory: the helper's `stage` is the kernel's `buf`, so a neighbour's
// cell read through `buf` races with the helper's write of it (no barrier
// between them).
__device__ void stage_value(float v) {
  extern __shared__ float stage[];
  stage[threadIdx.x] = v;
}

__global__ void shift_left(const float *x, float *y) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage_value(x[i]);
  if (threadIdx.x + 1 < blockDim.x)
    y[i] = buf[threadIdx.x + 1];
}
