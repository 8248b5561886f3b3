// expect: drf
// A copy kernel in the style of libraries that pick element types
// through traits structures: the untyped buffer `params.x` is read as pairs
// of halves (`IOType2`) at even half offsets, and written back as pairs.
// The element sizes are member types of the template argument's traits
// (`typename Traits::IOTraits::Type2`), which the template alone does not
// give; the instantiation at the launch does. Each thread's pair is its own.
#include <cuda_fp16.h>

struct Fp16 {
  using Type = __half;
  using Type2 = __half2;
};
struct Fp32 {
  using Type = float;
  using Type2 = float2;
};
struct Fp16IO {
  using IOTraits = Fp16;
};
struct Fp32IO {
  using IOTraits = Fp32;
};

struct Params {
  void *x;
  int n;
};

template <typename Traits_, int THREADS>
__global__ void scale_pairs(Params params) {
  using IOTraits = typename Traits_::IOTraits;
  using IOType = typename IOTraits::Type;
  using IOType2 = typename IOTraits::Type2;
  // Pairs per block, counted through the element size.
  constexpr int PAIR_BYTES = sizeof(IOType2);
  int pair = blockIdx.x * THREADS + threadIdx.x;
  if (pair * PAIR_BYTES >= params.n * (int)sizeof(IOType))
    return;
  const IOType *base = reinterpret_cast<const IOType *>(params.x);
  IOType2 v = *reinterpret_cast<const IOType2 *>(&base[2 * pair]);
  reinterpret_cast<IOType2 *>(params.x)[pair] = v;
}

void run(Params p, bool half) {
  if (half)
    scale_pairs<Fp16IO, 128><<<(p.n / 2 + 127) / 128, 128>>>(p);
  else
    scale_pairs<Fp32IO, 128><<<(p.n / 2 + 127) / 128, 128>>>(p);
}
