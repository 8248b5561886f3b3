// expect: unsupported
// options: --block-dim 128 --grid-dim 8
// A recursive __device__ function that writes memory: it cannot be inlined.

__device__ void fill_down(float *a, int i, int stride, int depth) {
  if (depth == 0)
    return;
  a[i] = (float)depth;
  fill_down(a, i + stride, stride, depth - 1);
}

__global__ void fill(float *a, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fill_down(a, i, blockDim.x * gridDim.x, depth);
}
