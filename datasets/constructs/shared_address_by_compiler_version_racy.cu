// expect: racy
// shared_address_by_compiler_version_drf.cu without the barrier between
// the PTX stores and the mirrored reads.
__device__ __forceinline__ unsigned to_shared(const void *p) {
#if __CUDACC_VER_MAJOR__ >= 11
  return __cvta_generic_to_shared(p);
#else
  unsigned r;
  asm volatile("{ .reg .u64 p1; cvta.to.shared.u64 p1, %1; cvt.u32.u64 %0, p1; }"
               : "=r"(r)
               : "l"(p));
  return r;
#endif
}

__global__ void mirror(float *out, const float *in) {
  __shared__ float tile[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  unsigned slot = to_shared(tile + threadIdx.x);
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(slot), "f"(in[i]));
  out[i] = tile[255 - threadIdx.x];
}

void run(float *out, const float *in, int blocks) { mirror<<<blocks, 256>>>(out, in); }
