// expect: racy
// asm_access_at_an_offset_drf.cu with the second store's offset one
// record too far (`[%0+48]`): it lands in the second half of the next
// thread's record, which that thread stores too.
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
  asm volatile("st.global.v4.u32 [%0+48], {%1,%2,%3,%4};"
               :: "l"(out + i), "r"(e), "r"(f), "r"(g), "r"(h));
}
