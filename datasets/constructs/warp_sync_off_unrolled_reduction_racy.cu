// expect: racy
// options: --block-dim 256
// warp_sync_unrolled_reduction_drf.cu without --warp-sync: lanes of a
// warp are not in lockstep on current GPUs (nothing orders lane t + 16
// writing s[t + 16] before lane t reads it), so the unrolled steps race.
__global__ void block_sum(const int *in, int *out) {
  __shared__ volatile int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 128; k > 32; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
