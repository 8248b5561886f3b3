// expect: racy
// options: --block-dim 128
// block_total_every_thread_drf.cu storing each thread's own partial sum
// into the block's slot: different values, a real race.
__global__ void block_totals(const float *in, float *totals) {
  __shared__ float s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  totals[blockIdx.x] = s[threadIdx.x];
}
