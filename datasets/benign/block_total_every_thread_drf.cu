// expect: drf
// options: --block-dim 128
// After the block's reduction every thread stores the total, s[0], into the
// block's slot: the same value from every thread, a benign race.
__global__ void block_totals(const float *in, float *totals) {
  __shared__ float s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  totals[blockIdx.x] = s[0];
}
