// expect: drf
// Half-precision axpy over a grid-stride loop. The toolkit writes __hadd
// and __hmul in inline assembly: they are calls whose values drfscan does
// not compute, not constructs that stop the analysis.
#include <cuda_fp16.h>
__global__ void haxpy(int n, half a, const half *x, half *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = start; i < n; i += stride)
    y[i] = __hadd(__hmul(a, x[i]), y[i]);
}
