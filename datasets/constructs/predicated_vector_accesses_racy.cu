// expect: racy
// The guarded PTX stores of predicated_vector_accesses_drf.cu, but the
// guard lets both threads of each pair store to the cell half their
// index names.
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

__global__ void pack_even(float4 *out, const float4 *in, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  store_global(out + i / 2, &v, i < count);
}
