// expect: drf
// Operators on a value of a template's type parameter (`i < n`, `i + n`)
// while some overload of them is in scope (a library's vector type, as
// cub's headers bring): clang leaves them unresolved in the template.
// Between two integers only the built-in operator applies.
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
    out[i + n] = v - v / 2;
  }
}
