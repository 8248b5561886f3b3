// expect: drf
// options: --block-dim 128 --grid-dim 16
// A local (per-thread) array: every thread uses window[0..4], which is
// private, so the equal indices never race.

__global__ void median5(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float window[5];
  for (int k = 0; k < 5; k++)
    window[k] = in[g + k];
  for (int i = 1; i < 5; i++) {
    float v = window[i];
    int j = i - 1;
    while (j >= 0 && window[j] > v) {
      window[j + 1] = window[j];
      j--;
    }
    window[j + 1] = v;
  }
  out[g] = window[2];
}
