// expect: drf
// A pointer stepped in the inner of two counted loops (im2col's column
// pointer): each run of the inner loop moves it `kw` rows on, so the
// outer loop's iteration `i` starts it `i * kw` rows down. Each thread
// keeps its own column of every row.
__global__ void spread_columns(const float *in, float *out, int n, int kh, int kw) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float *p = out + t;
  for (int i = 0; i < kh; ++i) {
    for (int j = 0; j < kw; ++j) {
      *p = in[t] * (i + j);
      p += n;
    }
  }
}
