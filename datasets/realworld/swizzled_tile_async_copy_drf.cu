// expect: drf
// A GEMM's tile of A staged into shared memory with cp.async, through a
// swizzled layout that spreads the two 16-byte halves of each row over
// banks: the half at column k of row m goes to column
// ((k >> 3) ^ (m >> 2)) % 2 * 8. The swizzle is a template helper called
// with the kernel's own template argument, and the shared address is
// integer arithmetic on __cvta_generic_to_shared. Per row the swizzle
// swaps the halves or not: a permutation, so no two threads meet.
#include <cuda_fp16.h>
#include <stdint.h>

#define CP_ASYNC_CG(dst, src, bytes) \
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))

template <int kColStride = 16, int kStep = 8>
__device__ __forceinline__ int swizzle_column(int i, int j) {
  if constexpr (kStep == 8) {
    return (((j >> 3) ^ (i >> 2)) % (kColStride >> 3)) << 3;
  } else {
    return (((j >> 2) ^ (i >> 2)) % (kColStride >> 2)) << 2;
  }
}

template <int BK = 16, int BM = 128>
__global__ void stage_tile(const half *A, half *C, int K) {
  extern __shared__ half smem[];
  int tid = threadIdx.x;
  int m = tid / 2, k = (tid % 2 == 0) ? 0 : 8;
  uint32_t base = __cvta_generic_to_shared(smem);
  uint32_t dst = base + (m * BK + swizzle_column<BK, 8>(m, k)) * sizeof(half);
  CP_ASYNC_CG(dst, &A[(blockIdx.x * BM + m) * K + k], 16);
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  for (int j = 0; j < 8; ++j) {
    C[(blockIdx.x * BM + m) * BK + k + j] = smem[m * BK + swizzle_column<BK, 8>(m, k) + j];
  }
}

void stage(const half *A, half *C, int M, int K) {
  stage_tile<16, 128><<<M / 128, 256, 128 * 16 * sizeof(half)>>>(A, C, K);
}
