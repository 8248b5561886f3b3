// expect: racy
// As `quotient_by_a_parameter_drf.cu`, but one copy too many: plane `c`'s
// last copy is plane `c + 1`'s first.
__global__ void repeat_planes(const float *in, float *out, int n, int plane, int copies) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = i / plane;
  int p = i % plane;
  for (int r = 0; r <= copies; ++r)
    out[(c * copies + r) * plane + p] = in[i];
}
