// expect: racy
// The same table filled by every thread through a range loop by reference,
// with values that differ between threads, and read with no barrier between.
__global__ void weighted(float *out, const float *in, int n) {
  __shared__ float weights[16];
  float w = threadIdx.x;
  for (float &x : weights) {
    x = w;
    w *= 0.5f;
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (float x : weights)
    acc += x;
  if (i < n)
    out[i] = acc + in[i];
}
