// expect: drf
// A thread's place split by a plane size (`i / plane`, `i % plane`), each
// plane copied `copies` times. A division by zero has no meaning, so the
// accesses that divide by `plane` are made only where it is at least 1:
// without that, both threads would get any quotient and remainder.
__global__ void repeat_planes(const float *in, float *out, int n, int plane, int copies) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = i / plane;
  int p = i % plane;
  for (int r = 0; r < copies; ++r)
    out[(c * copies + r) * plane + p] = in[i];
}
