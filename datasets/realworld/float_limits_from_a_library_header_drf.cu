// expect: drf
// A block-wide maximum as NMS and softmax kernels write it, starting from
// -FLT_MAX without including <float.h>: in the projects this comes from,
// a library's headers (Thrust, CUB, TensorRT, ATen) bring the floating
// limits in, and a scan without those libraries installed, or without a
// CUDA toolkit, must still have them.
__global__ void block_max(const float *in, float *out, int n) {
  __shared__ float best[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  best[threadIdx.x] = i < n ? in[i] : -FLT_MAX;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = best[0] > FLT_EPSILON ? best[0] : 0.0f;
}

void launch(const float *in, float *out, int n) {
  block_max<<<(n + 255) / 256, 256>>>(in, out, n);
}
