// expect: drf
// Sizes of a template's own index type (`index_t n`) and a by-value
// structure of them: one value for every thread, in a template no launch
// instantiates. Each thread writes its coordinates `n` apart.
#define DIMS 3
template <typename index_t> struct Sizes {
  index_t size[DIMS];
};

template <typename index_t>
__global__ void coordinates(long *out, const long *flat, Sizes<index_t> sizes, int ndim, index_t n) {
  index_t i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  long rest = flat[i];
#pragma unroll
  for (int d = DIMS - 1; d >= 0; d--) {
    if (d >= ndim) continue;
    index_t size = sizes.size[d];
    out[i + d * n] = rest % size;
    rest /= size;
  }
}
