// expect: racy
// options: --block-dim 256 --grid-dim 16
// The helper writes a[i / 2]: threads 2k and 2k + 1 write the same element.

__device__ void store_half(float *a, int i, float v) {
  a[i / 2] = v;
}

__global__ void halve(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    store_half(out, i, in[i]);
}
