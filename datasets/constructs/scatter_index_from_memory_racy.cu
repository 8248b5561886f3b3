// expect: racy
// options: --block-dim 256 --grid-dim 16
// Scatter through an index array: two entries of idx may be equal, and then
// two threads write the same out cell (a possible race: it depends on the
// contents of idx).

__global__ void scatter(const int *idx, const float *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[idx[i]] = v[i];
}
