// expect: racy
// add_operands of its drf twin whose branch for no extra operands writes
// the sum into the first cell: every thread of an empty pack's
// instantiation writes there.
template <typename T, typename... Extra>
__global__ void add_operands(const T *a, const T *b, T *out, int n, Extra... extra) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  T sum = a[i];
  if constexpr (sizeof...(Extra) > 0) {
    sum = (sum + ... + extra[i]);
    out[i] = sum;
  } else {
    out[0] = sum + b[i];
  }
}

void add(const float *a, const float *b, float *out, int n) {
  add_operands<float><<<(n + 255) / 256, 256>>>(a, b, out, n);
}
