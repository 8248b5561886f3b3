// expect: drf
// A row kernel stores UNROLL floats at a time through a helper template
// that picks its store width with `if constexpr` on `N * sizeof(T)`. The
// call `store_vec<float, UNROLL>` writes a type before the value, so the
// value argument has no cursor of its own at a type's position.
#include <cstdint>

template <typename T, int N>
__device__ void store_vec(T *dst, const T *src) {
  constexpr int BYTES = N * sizeof(T);
  if constexpr (BYTES == 4) {
    *reinterpret_cast<uint32_t *>(dst) = *reinterpret_cast<const uint32_t *>(src);
  } else if constexpr (BYTES == 16) {
    *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
  } else {
    for (int i = 0; i < N; i++)
      dst[i] = src[i];
  }
}

template <int UNROLL>
__global__ void scale_rows(float *out, const float *in, float a, int C) {
  float regs[UNROLL];
  float *row = out + blockIdx.x * C;
  for (int offset = threadIdx.x * UNROLL; offset + UNROLL <= C;
       offset += blockDim.x * UNROLL) {
    for (int i = 0; i < UNROLL; i++)
      regs[i] = a * in[blockIdx.x * C + offset + i];
    store_vec<float, UNROLL>(row + offset, regs);
  }
}

void run(float *out, const float *in, float a, int rows, int C) {
  if (C % 4 == 0)
    scale_rows<4><<<rows, 128>>>(out, in, a, C);
  else
    scale_rows<1><<<rows, 128>>>(out, in, a, C);
}
