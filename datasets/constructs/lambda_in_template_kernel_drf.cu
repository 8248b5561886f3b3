// expect: drf
// A kernel template whose body defines a lambda capturing by reference and
// calls it (ggml's rope kernels store a rotated pair this way): the
// closure's type depends on the template, so clang leaves the call
// unresolved in the template's body, and the lambda's own body says what
// it writes. Each thread stores its own pair of cells.
template <typename D>
__global__ void rotate_pairs(const float *x, D *dst, int n, float c, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int idst = 2 * i;
  const auto &store_pair = [&](float a, float b) {
    dst[idst] = (D)a;
    dst[idst + 1] = (D)b;
  };
  float x0 = x[2 * i], x1 = x[2 * i + 1];
  store_pair(x0 * c - x1 * s, x0 * s + x1 * c);
}

template __global__ void rotate_pairs<float>(const float *, float *, int, float, float);
