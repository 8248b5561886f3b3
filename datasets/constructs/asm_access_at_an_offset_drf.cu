// expect: drf
// A 32-byte record copied with two 16-byte vector instructions, the second
// at a byte offset from the first (`[%4+16]`), as hashing and packing
// kernels write their wide loads and stores. Each thread moves its own
// record.
// The loads name their pointer's constraint with the toolkit's macro.
#ifndef __LDG_PTR
#define __LDG_PTR "l"
#endif
struct record { unsigned int w[8]; };

__global__ void copy_records(const record *in, record *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int a, b, c, d, e, f, g, h;
  asm("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];"
      : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : __LDG_PTR(in + i));
  asm("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4+16];"
      : "=r"(e), "=r"(f), "=r"(g), "=r"(h) : __LDG_PTR(in + i));
  asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};"
               :: "l"(out + i), "r"(a), "r"(b), "r"(c), "r"(d));
  asm volatile("st.global.v4.u32 [%0+16], {%1,%2,%3,%4};"
               :: "l"(out + i), "r"(e), "r"(f), "r"(g), "r"(h));
}
