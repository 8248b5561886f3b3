// expect: drf
// Launched at two widths, both within the 128 cells of the shared buffer.
__global__ void stage(const float *in, float *out) {
  __shared__ float buf[128];
  buf[threadIdx.x % 128] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

void run(const float *in, float *out, int n, bool wide) {
  if (wide)
    stage<<<n / 128, 128>>>(in, out);
  else
    stage<<<n / 64, 64>>>(in, out);
}
