// expect: drf
// shifted_quotient_truncates_toward_zero_racy.cu with thread 0 left out:
// every other thread's `(2 * x - 1) / 2` is `x - 1`, one cell each.
__global__ void shift_left(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > 0)
    out[(2 * x - 1) / 2] = in[x];
}
