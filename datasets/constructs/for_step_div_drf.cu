// expect: drf
// options: --block-dim 256 --grid-dim 8
// A synchronized for loop stepping by /= 2 (sequential-addressing reduction).

__global__ void reduce_div(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
