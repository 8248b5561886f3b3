// expect: drf
// options: --block-dim 256
// A shared tile declared `__device__ __shared__` inside the kernel, as old
// CUDA code wrote it: nvcc takes it for a shared array, clang refuses the
// `__device__` on a local. The block reverses its tile after a barrier.
__global__ void reverse_tile(float *out, const float *in) {
  __device__ __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}
