// expect: racy
// `type_parameter_operators_drf.cu` with the second half one cell on:
// thread i's second half is thread i + 1's first.
struct Wide {
  long lo, hi;
};
__device__ bool operator<(Wide a, Wide b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
__device__ Wide operator+(Wide a, Wide b) { return Wide{a.lo + b.lo, a.hi + b.hi}; }

template <typename index_t>
__global__ void split_halves(long *out, const long *in, index_t n) {
  auto i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    long v = in[i];
    out[i] = v / 2;
    out[i + 1] = v - v / 2;
  }
}
