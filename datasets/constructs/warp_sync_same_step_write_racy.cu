// expect: racy
// options: --block-dim 64 --warp-sync 32
// Lockstep orders a warp's steps, not two lanes' writes at one step: lanes
// 2i and 2i + 1 store different sums into pair[i] at once.
__global__ void pair_sums(const int *in, int *out) {
  __shared__ int s[64];
  __shared__ int pair[32];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32)
    pair[t / 2] = s[t] + s[t + 32];
  __syncthreads();
  if (t < 16)
    out[blockIdx.x * 16 + t] = pair[t];
}
