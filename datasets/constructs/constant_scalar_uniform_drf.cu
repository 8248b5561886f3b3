// expect: drf
// A row length the host sets in constant memory bounds a loop with a
// barrier in it: the value is unknown, but every thread reads the same one,
// so the barrier is not divergent.
__constant__ int c_width;

__global__ void blur_rows(const float *in, float *out) {
  __shared__ float row[257];
  for (int x0 = 0; x0 < c_width; x0 += 256) {
    if (x0 + threadIdx.x < c_width)
      row[threadIdx.x] = in[blockIdx.x * c_width + x0 + threadIdx.x];
    __syncthreads();
    if (x0 + threadIdx.x + 1 < c_width && threadIdx.x < 255)
      out[blockIdx.x * c_width + x0 + threadIdx.x] = 0.5f * (row[threadIdx.x] + row[threadIdx.x + 1]);
    __syncthreads();
  }
}

void run(const float *in, float *out, int rows) {
  blur_rows<<<rows, 256>>>(in, out);
}
