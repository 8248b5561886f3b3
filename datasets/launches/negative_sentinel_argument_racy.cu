// expect: racy
// negative_sentinel_argument_drf.cu launched only with the `-1`
// sentinel and writing half the index: two threads store to one element.
// The witness must replay with the parameter open (fixed at -1, it was
// an internal error).
__global__ void rotate(float *x, int rotary_dim, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (i < rotary_dim)
      v = -v;
    x[i / 2] = v;
  }
}

void run(float *x, int n) { rotate<<<(n + 255) / 256, 256>>>(x, -1, n); }
