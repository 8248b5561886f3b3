// expect: drf
// options: --block-dim 256 --grid-dim 16
// Accesses inside __device__ helpers called from the kernel.

__device__ int global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ float load(const float *a, int i) {
  return a[i];
}

__device__ void store(float *a, int i, float v) {
  a[i] = v;
}

__global__ void increment(const float *in, float *out, int n) {
  int i = global_index();
  if (i < n)
    store(out, i, load(in, i) + 1.0f);
}
