// expect: drf
// options: --block-dim 64
// Each warp stores two 8 x 8 matrices of halves from registers into its
// own 16 x 8 slice of a shared tile with stmatrix.x2, then the block copies
// the tile out after a barrier. Only lanes 0-15 name rows for two
// matrices; lanes 16-31 compute the same addresses again (lane % 16),
// which the instruction does not use.
#include <cuda_fp16.h>

__global__ void store_fragments(const uint32_t *frags, half *out) {
  __shared__ half tile[2][16][8];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint32_t r0 = frags[(blockIdx.x * 64 + threadIdx.x) * 2];
  uint32_t r1 = frags[(blockIdx.x * 64 + threadIdx.x) * 2 + 1];
  uint32_t row = __cvta_generic_to_shared(&tile[warp][lane % 16][0]);
  asm volatile("stmatrix.sync.aligned.x2.m8n8.shared.b16 [%0], {%1, %2};\n"
               :: "r"(row), "r"(r0), "r"(r1));
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    int cell = threadIdx.x * 4 + k;
    out[blockIdx.x * 256 + cell] = tile[cell / 128][(cell / 8) % 16][cell % 8];
  }
}
