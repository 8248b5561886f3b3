// expect: drf
// A copy that moves four floats per thread with PTX vector loads and
// stores, and counts the elements copied with a PTX reduction (`red`),
// which is atomic: the threads' updates of the counter do not race.
__device__ void load4(const float *p, float4 &v) {
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p));
}

__device__ void store4(float *p, const float4 &v) {
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};"
               :
               : "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

__device__ void count(unsigned *counter, unsigned n) {
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(counter), "r"(n) : "memory");
}

__global__ void copy4(float *out, const float *in, unsigned *copied, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v;
    load4(in + 4 * i, v);
    store4(out + 4 * i, v);
    count(copied, 4);
  }
}
