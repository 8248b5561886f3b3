// expect: drf
// A thread's place split by a plane size (`i / plane`, `i % plane`), each
// plane copied `copies` times. The proof splits on the size: at least 1,
// where the place is a mixed-radix number, or 0, where `i / 0` is 0 and
// `i % 0` is `i`, so each thread still writes its own cells.
__global__ void repeat_planes(const float *in, float *out, int n, int plane, int copies) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = i / plane;
  int p = i % plane;
  for (int r = 0; r < copies; ++r)
    out[(c * copies + r) * plane + p] = in[i];
}
