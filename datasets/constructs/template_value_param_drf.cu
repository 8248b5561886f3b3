// expect: drf
// options: --block-dim 128 --grid-dim 8
// A kernel template with a value parameter (the block size), explicitly
// instantiated for 128 threads: tree reduction over BLOCK elements.

template <int BLOCK>
__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

template __global__ void block_sum<128>(const float *, float *);
