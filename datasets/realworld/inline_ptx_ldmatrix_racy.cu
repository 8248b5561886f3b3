// expect: racy
// options: --block-dim 32
// inline_ptx_ldmatrix_drf.cu without the barrier: a lane's ldmatrix row
// may be read while another lane is still storing into it.
#include <cuda_fp16.h>

__global__ void load_fragments(const half *in, float *out) {
  __shared__ half tile[16][16];
  for (int k = 0; k < 8; ++k) {
    tile[threadIdx.x / 2][(threadIdx.x % 2) * 8 + k] = in[blockIdx.x * 256 + threadIdx.x * 8 + k];
  }
  uint32_t r0, r1, r2, r3;
  uint32_t row = __cvta_generic_to_shared(&tile[threadIdx.x % 16][(threadIdx.x / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(row));
  out[blockIdx.x * 32 + threadIdx.x] = (float)(r0 ^ r1 ^ r2 ^ r3);
}
