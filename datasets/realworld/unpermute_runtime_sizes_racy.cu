// expect: racy
// unpermute_runtime_sizes_drf.cu with the token coordinate taken modulo the
// head size instead of divided by it: two threads of one head and
// different tokens can land on one cell.
__global__ void unpermute_heads_wrong(const float *inp, float *out, int B, int T, int NH, int HS) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * T * HS) {
    int b = idx / (NH * T * HS);
    int rest = idx % (NH * T * HS);
    int h = rest / (T * HS);
    rest = rest % (T * HS);
    int t = rest % HS;
    int c = rest % HS;
    out[b * T * NH * HS + t * NH * HS + h * HS + c] = inp[idx];
  }
}
