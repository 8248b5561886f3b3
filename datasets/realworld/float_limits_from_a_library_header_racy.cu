// expect: racy
// float_limits_from_a_library_header_drf.cu without the barrier in the
// reduction's loop: a thread reads a cell another thread of the next
// step writes.
__global__ void block_max(const float *in, float *out, int n) {
  __shared__ float best[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  best[threadIdx.x] = i < n ? in[i] : -FLT_MAX;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = best[0] > FLT_EPSILON ? best[0] : 0.0f;
}

void launch(const float *in, float *out, int n) {
  block_max<<<(n + 255) / 256, 256>>>(in, out, n);
}
