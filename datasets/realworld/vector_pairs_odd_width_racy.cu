// expect: racy
// vector_pairs_required_even_drf.cu without the requirement: for an odd
// width the last cell of one row and the first of the next are one half2
// cell, which the threads of two blocks update. A race only for such
// widths, reported as possible with the precondition `width % 2 == 0`.
#include <cuda_fp16.h>

__global__ void add_bias_pairs(__half *src, const __half *bias, int width) {
  int row = blockIdx.x;
  for (int y = threadIdx.x * 2; y < width; y += blockDim.x * 2) {
    half2 v = ((half2 *)src)[(row * width + y) >> 1];
    half2 b = ((const half2 *)bias)[y >> 1];
    ((half2 *)src)[(row * width + y) >> 1] = __hadd2(v, b);
  }
}
