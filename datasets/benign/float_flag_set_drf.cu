// expect: drf
// A relaxation sweep: every thread whose value still moves marks the sweep
// as unconverged. The threads that store to `unconverged[0]` all store the
// floating-point constant 1.0f, from either branch, so their writes are a
// benign race (GPUVerify and Faial accept equal values).
__global__ void relax(const float *in, float *out, float *unconverged, int n, float tol) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.5f * (in[i] + in[(i + 1) % n]);
    out[i] = v;
    if (v > in[i] + tol)
      unconverged[0] = 1.0f;
    else if (v < in[i] - tol)
      unconverged[0] = 1.0f;
  }
}
