// expect: drf
// options: --block-dim 64 --grid-dim 8
// break: the first loop stops before its second iteration, so each thread
// only writes s[tid] (ignoring the break would make thread t write s[t + 1]
// too). The second loop stops at the first negative input.

__global__ void break_loops(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  for (int j = 0; j < 8; j++) {
    if (j == 1)
      break;
    s[t + j] = 0.0f;
  }

  int g = blockIdx.x * blockDim.x + t;
  for (int j = 0; j < 8; j++) {
    float v = in[g * 8 + j];
    if (v < 0.0f)
      break;
    out[g * 8 + j] = v;
  }
}
