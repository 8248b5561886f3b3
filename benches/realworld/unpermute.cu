// expect: drf
// The inverse of permute: the thread's index is decomposed with runtime
// sizes and recomposed in another order, so the write is injective only
// because mixed-radix digits are unique.
__global__ void unpermute(const float *inp, float *out, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int c = rest % d;
    out[b * N * NH * d + n * NH * d + nh * d + c] = inp[idx];
  }
}

void launch_unpermute(const float *inp, float *out, int B, int N, int NH, int d) {
  int total = B * NH * N * d;
  unpermute<<<(total + 255) / 256, 256>>>(inp, out, B, N, NH, d);
}
