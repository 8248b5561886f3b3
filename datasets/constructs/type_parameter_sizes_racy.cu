// expect: racy
// `type_parameter_sizes_drf.cu` with coordinates one cell apart: thread
// i's second coordinate is thread i + 1's first.
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
    out[i + d] = rest % size;
    rest /= size;
  }
}
