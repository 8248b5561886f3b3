// expect: racy
// options: --block-dim 256
// The same `__device__ __shared__` tile reversed without the barrier: a
// thread reads the cell its mirror image may not have written yet.
__global__ void reverse_tile(float *out, const float *in) {
  __device__ __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  tile[threadIdx.x] = in[i];
  out[i] = tile[255 - threadIdx.x];
}
