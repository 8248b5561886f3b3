// expect: drf
// A shared-memory address for inline PTX taken with the intrinsic when
// nvcc is recent enough (`#if __CUDACC_VER_MAJOR__ >= 11`), with a
// `cvta` in assembly as the fallback for older compilers, as inference
// libraries write it. Without nvcc's version the fallback was read, and
// its address had no known origin. Each thread stores its own slot and,
// after the barrier, reads the mirrored one.
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
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}

void run(float *out, const float *in, int blocks) { mirror<<<blocks, 256>>>(out, in); }
