// expect: drf
// Double buffering inside a kernel: two pointers swapped after every step
// (`tmp = in; in = out; out = tmp;`). At the top of an iteration each may be
// in either array, at the place it started; every thread keeps to its own
// cell of both.
__global__ void relax(float *a, float *b, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *in = a, *out = b;
  for (int t = 0; t < steps; t++) {
    out[i] = 0.5f * in[i] + 1.0f;
    float *tmp = in;
    in = out;
    out = tmp;
  }
}

// In shared memory, with a barrier between the steps.
__global__ void smooth(float *g) {
  __shared__ float s1[256], s2[256];
  int i = threadIdx.x;
  int base = blockIdx.x * 256;
  if (blockDim.x != 256) return;
  s1[i] = g[base + i];
  __syncthreads();
  float *in = s1, *out = s2;
  for (int t = 0; t < 8; t++) {
    out[i] = 0.5f * (in[i] + in[(i + 1) % 256]);
    __syncthreads();
    float *tmp = in;
    in = out;
    out = tmp;
  }
  g[base + i] = in[i];
}
