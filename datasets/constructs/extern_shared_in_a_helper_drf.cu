// expect: drf
// options: --block-dim 128 --grid-dim 8
// Every `extern __shared__` array is the block's one dynamic shared
// memory: the helper's `stage` is the kernel's `buf`, and a barrier
// separates the helper's writes from the neighbour's read.
__device__ void stage_value(float v) {
  extern __shared__ float stage[];
  stage[threadIdx.x] = v;
}

__global__ void shift_left(const float *x, float *y) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage_value(x[i]);
  __syncthreads();
  if (threadIdx.x + 1 < blockDim.x)
    y[i] = buf[threadIdx.x + 1];
}
