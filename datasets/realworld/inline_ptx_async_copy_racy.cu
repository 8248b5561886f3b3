// expect: racy
// options: --block-dim 128
// inline_ptx_async_copy_drf.cu with each thread's copy two floats after the
// last one instead of four: the 16 bytes of thread t overlap those of
// thread t + 1.
#define CP_ASYNC_CG(dst, src, bytes) \
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

__global__ void reverse_rows(const float *in, float *out) {
  __shared__ float tile[512];
  uint32_t base = __cvta_generic_to_shared(tile);
  uint32_t mine = base + threadIdx.x * 2 * sizeof(float);
  CP_ASYNC_CG(mine, &in[blockIdx.x * 512 + threadIdx.x * 4], 16);
  CP_ASYNC_COMMIT_GROUP();
  CP_ASYNC_WAIT_GROUP(0);
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    out[blockIdx.x * 512 + threadIdx.x * 4 + k] = tile[511 - threadIdx.x * 4 - k];
  }
}
