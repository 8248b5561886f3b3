// expect: drf
// Attention's weighted sum of values, one thread per output element: the
// coordinates are remainders of successive quotients of the index,
// (idx / HS) % NH and (idx / (HS * NH)) % T, with runtime sizes.
__global__ void weighted_values(float *out, const float *att, const float *v,
                                int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * NH * HS) {
    int i = idx % HS;
    int h = (idx / HS) % NH;
    int t = (idx / (HS * NH)) % T;
    int b = idx / (HS * NH * T);
    float acc = 0.0f;
    for (int t2 = 0; t2 <= t; t2++)
      acc += att[((b * NH + h) * T + t) * T + t2] * v[((b * T + t2) * NH + h) * HS + i];
    out[((b * T + t) * NH + h) * HS + i] = acc;
  }
}
