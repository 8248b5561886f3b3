// expect: drf
// Every thread stores the kernel's floating-point argument into one cell:
// a benign race (equal values), not a race.
__global__ void fill_first(float *out, float value, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = value;
  if (i > 0 && i < n)
    out[i] = in[i] * value;
}
