// expect: drf
// A bias added to rows of half values two at a time, as transformer code
// writes it: the row is viewed as half2 cells and cell (row * width + y) / 2
// is read and written by the thread whose y it is. The quotient is exact
// only for an even width, which the kernel requires; then the cells of two
// threads never meet.
#include <cuda_fp16.h>

__global__ void add_bias_pairs(__half *src, const __half *bias, int width) {
  __requires(width % 2 == 0);
  int row = blockIdx.x;
  for (int y = threadIdx.x * 2; y < width; y += blockDim.x * 2) {
    half2 v = ((half2 *)src)[(row * width + y) >> 1];
    half2 b = ((const half2 *)bias)[y >> 1];
    ((half2 *)src)[(row * width + y) >> 1] = __hadd2(v, b);
  }
}
