// expect: racy
// fp8_quads_from_half_pairs_drf.cu storing each quad at half its index:
// threads 2q and 2q + 1 write quad q.
#include <cuda_fp8.h>

__global__ void pack_quads(__nv_fp8x4_e4m3 *out, const __half2 *in, int quads) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < quads) {
    out[q / 2] = __nv_fp8x4_e4m3(in[2 * q], in[2 * q + 1]);
  }
}
