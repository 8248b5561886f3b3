// expect: drf
// Range-based `for` over a thread's own register array and over a shared
// table: thread 0 fills the table with a range loop by reference, the block
// waits, then every thread sums the table and its registers by value.
__global__ void weighted(float *out, const float *in, int n) {
  __shared__ float weights[16];
  if (threadIdx.x == 0) {
    float w = 1.0f;
    for (float &x : weights) {
      x = w;
      w *= 0.5f;
    }
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float regs[4];
  for (int k = 0; k < 4; k++)
    regs[k] = i * 4 + k < n ? in[i * 4 + k] : 0.0f;
  float acc = 0.0f;
  for (float x : weights)
    acc += x;
  for (float r : regs)
    acc += r;
  if (i < n)
    out[i] = acc;
}
