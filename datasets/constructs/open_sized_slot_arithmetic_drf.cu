// expect: drf
// A kernel template over its element type and its number of routed
// slots keeps the slots in `int slot[K]`, an array whose size the
// template leaves open, and places its row at `in + slot[k] * n`. With
// an `operator+` of some vector type in scope, clang leaves that sum an
// unresolved operator in the template; its operands are integers and a
// pointer, so it is pointer arithmetic (it was an unknown, and the row
// an access through a pointer of unknown origin). Each thread copies its
// own element of the row.
struct half_pair {
  unsigned short a, b;
};
__device__ half_pair operator+(half_pair x, half_pair y) { return x; }

template <typename T, int K>
__global__ void first_routed_row(T *out, const T *in, const int *slots, int n) {
  int slot[K];
  for (int k = 0; k < K; k++)
    slot[k] = slots[blockIdx.x * K + k];
  const T *row = in + slot[0] * n + threadIdx.x;
  if (threadIdx.x < n)
    out[blockIdx.x * n + threadIdx.x] = row[0];
}

template <typename T> void run(T *out, const T *in, const int *slots, int tokens, int n) {
  first_routed_row<T, 2><<<tokens, 256>>>(out, in, slots, n);
}
