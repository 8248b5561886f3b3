// expect: drf
// options: --block-dim 64 --grid-dim 1
// Two `__shared__` arrays of one name in two blocks of the kernel are two
// arrays: the second block writes its own `t` while slower threads still
// read the first.
__global__ void two_stages(const float *x, float *y) {
  {
    __shared__ float t[64];
    t[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    y[threadIdx.x] = t[63 - threadIdx.x];
  }
  {
    __shared__ float t[64];
    t[threadIdx.x] = x[threadIdx.x + 64];
    y[threadIdx.x + 64] = t[threadIdx.x];
  }
}
