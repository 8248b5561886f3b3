// expect: drf
// options: --block-dim 256 --grid-dim 16
// A pointer alias with an offset: p points at this block's segment of a, and
// p[threadIdx.x] is a[blockIdx.x * blockDim.x + threadIdx.x].

__global__ void double_segment(float *a, int n) {
  float *p = a + blockIdx.x * blockDim.x;
  int i = threadIdx.x;
  if (blockIdx.x * blockDim.x + i < n)
    p[i] = 2.0f * p[i];
}
