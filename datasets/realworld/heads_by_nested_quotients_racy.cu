// expect: racy
// heads_by_nested_quotients_drf.cu with the head taken from the wrong
// quotient, (idx / T) % NH: threads of different channels of one head and
// token write one cell.
__global__ void weighted_values_wrong(float *out, const float *att, const float *v,
                                      int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * NH * HS) {
    int i = idx % HS;
    int h = (idx / T) % NH;
    int t = (idx / (HS * NH)) % T;
    int b = idx / (HS * NH * T);
    out[((b * T + t) * NH + h) * HS + i] = att[idx];
  }
}
