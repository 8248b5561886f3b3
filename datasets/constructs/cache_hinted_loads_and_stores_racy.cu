// expect: racy
// The same streaming kernel storing to `out + i / 2`: threads 0 and 1 both
// write `out[0]`, with the values of two different inputs.
__global__ void scale_streaming(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i / 2, 2.0f * __ldcs(in + i));
}
