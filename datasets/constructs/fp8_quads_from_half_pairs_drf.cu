// expect: drf
// Four halves packed into one 8-bit float quad per thread, through the
// constructor from two `__half2`: each thread writes its own quad.
#include <cuda_fp8.h>

__global__ void pack_quads(__nv_fp8x4_e4m3 *out, const __half2 *in, int quads) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < quads) {
    out[q] = __nv_fp8x4_e4m3(in[2 * q], in[2 * q + 1]);
  }
}
