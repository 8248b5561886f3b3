// expect: drf
// options: --block-dim 256
// Every lane of a warp stores its warp's sum into the warp's slot: an xor
// butterfly (offsets 16 down to 1, a commutative +) leaves each lane the
// same sum, and so does a broadcast of lane 0's value. Benign races.
__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__device__ float warp_max(float v) {
  for (int offset = 1; offset < 32; offset <<= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

__global__ void warp_sums(const float *in, float *sums, float *maxima,
                          float *firsts) {
  __shared__ float per_warp[8];
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * 256 + threadIdx.x];
  per_warp[warp] = warp_sum(v);
  maxima[blockIdx.x * 8 + warp] = warp_max(v);
  firsts[blockIdx.x * 8 + warp] = __shfl_sync(0xffffffff, v, 0);
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < 8; w++)
      total += per_warp[w];
    sums[blockIdx.x] = total;
  }
}
