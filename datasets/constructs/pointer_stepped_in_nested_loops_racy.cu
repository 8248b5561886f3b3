// expect: racy
// As `pointer_stepped_in_nested_loops_drf.cu`, but the pointer steps by
// `kw` cells instead of a row of `n`: where `n` exceeds `kw`, thread `kw`'s
// first cell is thread 0's second.
__global__ void spread_columns(const float *in, float *out, int n, int kh, int kw) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float *p = out + t;
  for (int i = 0; i < kh; ++i) {
    for (int j = 0; j < kw; ++j) {
      *p = in[t] * (i + j);
      p += kw;
    }
  }
}
