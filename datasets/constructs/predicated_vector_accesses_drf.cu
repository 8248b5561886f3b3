// expect: drf
// Vector loads and stores in inline PTX guarded by a predicate the
// statement sets from an input (`setp.ne.b32 p, %5, 0; @p ld.global…`),
// as CUTLASS-derived and inference libraries write bounds-checked
// accesses. Each thread copies its own 16 bytes, and past the end it
// touches nothing: the guard is the bounds check.
__device__ __forceinline__ void load_global(void *dst, const void *src, bool do_access) {
  uint4 *data = reinterpret_cast<uint4 *>(dst);
  asm volatile("{\n"
               "\t.reg .pred p;\n"
               "\tsetp.ne.b32 p, %5, 0;\n"
               "\tmov.b32 %0, 0;\n"
               "\tmov.b32 %1, 0;\n"
               "\tmov.b32 %2, 0;\n"
               "\tmov.b32 %3, 0;\n"
               "\t@p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
               "}\n"
               : "=r"(data[0].x), "=r"(data[0].y), "=r"(data[0].z), "=r"(data[0].w)
               : "l"(src), "r"((int)do_access));
}

__device__ __forceinline__ void store_global(void *dst, const void *src, bool do_access) {
  const uint4 *data = reinterpret_cast<const uint4 *>(src);
  asm volatile("{\n"
               "\t.reg .pred p;\n"
               "\tsetp.ne.b32 p, %5, 0;\n"
               "\t@p st.global.v4.u32 [%0], {%1, %2, %3, %4};\n"
               "}\n"
               :
               : "l"(dst), "r"(data[0].x), "r"(data[0].y), "r"(data[0].z), "r"(data[0].w),
                 "r"((int)do_access));
}

// `count` vectors of four floats; the last block may run past them.
__global__ void copy_vectors(float4 *out, const float4 *in, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  load_global(&v, in + i, i < count);
  store_global(out + i, &v, i < count);
}

// Only even threads store, each to the cell half its index names.
__global__ void pack_even(float4 *out, const float4 *in, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  load_global(&v, in + i, i < count);
  store_global(out + i / 2, &v, i % 2 == 0);
}
