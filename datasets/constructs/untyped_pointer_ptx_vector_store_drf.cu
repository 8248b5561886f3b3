// expect: drf
// A bandwidth benchmark's store: the buffer is a `void *`, each thread
// moves it on by its index in `uint4` elements, and a helper writes 16
// bytes there with inline PTX through a `void *` again. The 16 bytes are
// one `uint4` element, the thread's own; counting them as 16 elements of
// the untyped buffer would make neighbours overlap.
#include <cstdint>

__device__ __forceinline__ void store_streaming(const uint4 &v, void *ptr) {
  asm volatile("st.global.cs.v4.b32 [%4], {%0, %1, %2, %3};"
               :
               : "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(ptr));
}

template <int BLOCK>
__global__ void fill_zero(void *out) {
  uint32_t idx = blockIdx.x * BLOCK + threadIdx.x;
  uint4 *dst = (uint4 *)out + idx;
  store_streaming(make_uint4(0, 0, 0, 0), dst);
}

int main() {
  void *buf;
  cudaMalloc(&buf, 1 << 24);
  fill_zero<128><<<(1 << 20) / 128, 128>>>(buf);
  return 0;
}
