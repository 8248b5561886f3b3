// expect: drf
// A binary operation whose template takes any number of extra operand
// arrays as a parameter pack, as fused tensor kernels do: `if constexpr
// (sizeof...(Extra) > 0)` folds over them, or else uses the one operand.
// Launched with no extra operands, the pack is empty and the fold is
// never compiled; each thread writes its own cell.
template <typename T, typename... Extra>
__global__ void add_operands(const T *a, const T *b, T *out, int n, Extra... extra) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  T sum = a[i];
  if constexpr (sizeof...(Extra) > 0) {
    sum = (sum + ... + extra[i]);
  } else {
    sum = sum + b[i];
  }
  out[i] = sum;
}

void add(const float *a, const float *b, float *out, int n) {
  add_operands<float><<<(n + 255) / 256, 256>>>(a, b, out, n);
}
