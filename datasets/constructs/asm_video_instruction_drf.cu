// expect: drf
// A nibble swap written with a PTX video instruction
// (`vshl.u32.u32.u32.clamp.add`), as hash kernels permute their state
// words: it computes on registers only, and each thread stores its own
// word.
__device__ __forceinline__ unsigned int swap_nibbles(unsigned int x) {
  unsigned int y;
  asm("and.b32 %1, %0, 0xF0F0F0F0;\n\t"
      "xor.b32 %0, %0, %1; shr.b32 %1, %1, 4;\n\t"
      "vshl.u32.u32.u32.clamp.add %0, %0, 4, %1;"
      : "+r"(x), "=r"(y));
  return x;
}

__global__ void permute(const unsigned int *in, unsigned int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = swap_nibbles(in[i]);
}
