// expect: drf
// options: --block-dim 256 --grid-dim 16
// Gather through an index array: reads at unknown indices only, writes at
// the thread's own index.

__global__ void gather(const int *idx, const float *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v[idx[i]];
}
