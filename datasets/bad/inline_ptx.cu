// expect: unsupported
// options: --block-dim 128 --grid-dim 8
// Inline PTX that stores to global memory: the access is invisible to a
// source-level analysis.

__global__ void ptx_store(float *a, float v) {
  float *p = a + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("st.global.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}
