// expect: drf
// options: --block-dim 256 --warp-sync 32
// A block sum whose last warp unrolls its steps without barriers, written
// for GPUs whose warps run in lockstep: correct under --warp-sync 32, where
// each lane's read of s[t + k] happens before any lane's write of s[t].
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
