// expect: racy
// The same 16-byte PTX store, but each thread moves the buffer on by its
// index in `uint2` elements, 8 bytes: its 16 bytes reach into the next
// thread's, which writes there too.
#include <cstdint>

__device__ __forceinline__ void store_streaming(const uint4 &v, void *ptr) {
  asm volatile("st.global.cs.v4.b32 [%4], {%0, %1, %2, %3};"
               :
               : "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(ptr));
}

template <int BLOCK>
__global__ void fill_zero_overlapping(void *out) {
  uint32_t idx = blockIdx.x * BLOCK + threadIdx.x;
  uint2 *dst = (uint2 *)out + idx;
  store_streaming(make_uint4(0, 0, 0, 0), dst);
}

int main() {
  void *buf;
  cudaMalloc(&buf, 1 << 24);
  fill_zero_overlapping<128><<<(1 << 20) / 128, 128>>>(buf);
  return 0;
}
