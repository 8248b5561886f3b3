// expect: racy
// unpermute.cu with the head and token digits recomposed with the wrong
// radices (nh * N * d + n * d, but nh runs to NH and n to N): two threads
// of different heads and tokens write one cell when NH != N.
__global__ void unpermute_swapped(const float *inp, float *out, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int c = rest % d;
    out[b * N * NH * d + n * N * d + nh * d + c] = inp[idx];
  }
}
