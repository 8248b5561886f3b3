// expect: racy
// options: --block-dim 256
// warp_sums_every_lane_drf.cu with a reduction by __shfl_down_sync: only
// lane 0 ends with the warp's sum, the other lanes hold partial sums, and
// every lane stores what it holds into the warp's slot.
__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void warp_sums(const float *in, float *sums) {
  __shared__ float per_warp[8];
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * 256 + threadIdx.x];
  per_warp[warp] = warp_sum(v);
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < 8; w++)
      total += per_warp[w];
    sums[blockIdx.x] = total;
  }
}
