// expect: racy
// `float_parameter_store_drf.cu` storing the argument scaled by the
// thread's index into the shared cell: the values differ.
__global__ void fill_first(float *out, float value, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = value * i;
  if (i > 0 && i < n)
    out[i] = in[i] * value;
}
