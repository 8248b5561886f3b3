// expect: racy
// options: --block-dim 64
// inline_ptx_stmatrix_drf.cu with every warp storing into slice 0: the
// rows lanes 0-15 of both warps name are the same, and stmatrix writes
// them from two warps.
#include <cuda_fp16.h>

__global__ void store_fragments(const uint32_t *frags, half *out) {
  __shared__ half tile[2][16][8];
  int lane = threadIdx.x % 32;
  uint32_t r0 = frags[(blockIdx.x * 64 + threadIdx.x) * 2];
  uint32_t r1 = frags[(blockIdx.x * 64 + threadIdx.x) * 2 + 1];
  uint32_t row = __cvta_generic_to_shared(&tile[0][lane % 16][0]);
  asm volatile("stmatrix.sync.aligned.x2.m8n8.shared.b16 [%0], {%1, %2};\n"
               :: "r"(row), "r"(r0), "r"(r1));
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    int cell = threadIdx.x * 4 + k;
    out[blockIdx.x * 256 + cell] = tile[cell / 128][(cell / 8) % 16][cell % 8];
  }
}
