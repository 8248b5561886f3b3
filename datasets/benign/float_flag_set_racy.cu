// expect: racy
// As `float_flag_set_drf.cu`, but the flag records the direction of the
// move: a thread moving up stores 1.0f while one moving down stores -1.0f
// to the same cell, and which value remains depends on the schedule.
__global__ void relax(const float *in, float *out, float *direction, int n, float tol) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.5f * (in[i] + in[(i + 1) % n]);
    out[i] = v;
    if (v > in[i] + tol)
      direction[0] = 1.0f;
    else if (v < in[i] - tol)
      direction[0] = -1.0f;
  }
}
