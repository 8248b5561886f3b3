// expect: racy
// options: --block-dim 256
// A for loop stepping by >>= 1 that reduces in place without barriers: the
// rounds overlap (thread 0 reads s[64] in round 64 while thread 64 writes it
// in round 128).

__global__ void reduce_shr_nosync(const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
  }
}
