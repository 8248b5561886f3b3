// expect: drf
// options: --block-dim 256 --grid-dim 64
// Block sum with warp shuffles: registers are reduced inside each warp, lane
// 0 of every warp stores its partial sum, and warp 0 reduces the partials.
// Shuffles exchange registers, not memory.

#define WARP 32

__device__ float warp_sum(float v) {
  for (int off = WARP / 2; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__global__ void reduce_shuffle(const float *in, float *out, int n) {
  __shared__ float partial[WARP];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  int lane = tid % WARP;
  int warp = tid / WARP;

  float v = (i < n) ? in[i] : 0.0f;
  v = warp_sum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = (tid < blockDim.x / WARP) ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}
