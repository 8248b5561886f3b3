// expect: racy
// half_axpy_grid_stride_drf.cu where each thread also adds into its right
// neighbour's element, which that neighbour writes.
#include <cuda_fp16.h>
__global__ void haxpy(int n, half a, const half *x, half *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = start; i + 1 < n; i += stride)
    y[i + 1] = __hadd(__hmul(a, x[i]), y[i]);
}
