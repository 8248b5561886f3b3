// expect: drf
// Causal attention in three kernels: scores q.k per (batch, head, query,
// key) element, a row softmax in place, and the weighted sum of values,
// each thread decomposing its index with runtime sizes.
__global__ void attention_scores(float *att, const float *q, const float *k,
                                 int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * T * T) {
    int t2 = idx % T;
    int t = (idx / T) % T;
    if (t2 > t) {
      att[idx] = -3.0e38f;
      return;
    }
    int h = (idx / (T * T)) % NH;
    int b = idx / (NH * T * T);
    const float *qv = q + b * T * NH * HS + t * NH * HS + h * HS;
    const float *kv = k + b * T * NH * HS + t2 * NH * HS + h * HS;
    float val = 0.0f;
    for (int i = 0; i < HS; i++)
      val += qv[i] * kv[i];
    att[idx] = val / sqrtf((float)HS);
  }
}

__global__ void attention_softmax(float *att, int B, int T, int NH) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < B * NH * T) {
    int t = row % T;
    float *r = att + row * T;
    float m = r[0];
    for (int i = 1; i <= t; i++)
      m = fmaxf(m, r[i]);
    float s = 0.0f;
    for (int i = 0; i <= t; i++) {
      r[i] = expf(r[i] - m);
      s += r[i];
    }
    for (int i = 0; i < T; i++)
      r[i] = i <= t ? r[i] / s : 0.0f;
  }
}

__global__ void attention_values(float *out, const float *att, const float *v,
                                 int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * NH * HS) {
    int i = idx % HS;
    int h = (idx / HS) % NH;
    int t = (idx / (HS * NH)) % T;
    int b = idx / (HS * NH * T);
    const float *a = att + b * NH * T * T + h * T * T + t * T;
    float acc = 0.0f;
    for (int t2 = 0; t2 <= t; t2++)
      acc += a[t2] * v[b * T * NH * HS + t2 * NH * HS + h * HS + i];
    out[b * T * NH * HS + t * NH * HS + h * HS + i] = acc;
  }
}
