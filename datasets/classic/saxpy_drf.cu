// expect: drf
// options: --block-dim 256 --grid-dim 64
// y = a * x + y, one element per thread, guarded by the vector length.

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
