// expect: drf
// An attention output's unpermute, every size a runtime parameter: the
// thread's index is split into (batch, head, token, channel) by division
// and remainder and put together in another order. The write is injective
// because the quotients and remainders are the digits of one mixed-radix
// number.
__global__ void unpermute_heads(const float *inp, float *out, int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * T * HS) {
    int b = idx / (NH * T * HS);
    int rest = idx % (NH * T * HS);
    int h = rest / (T * HS);
    rest = rest % (T * HS);
    int t = rest / HS;
    int c = rest % HS;
    out[b * T * NH * HS + t * NH * HS + h * HS + c] = inp[idx];
  }
}
