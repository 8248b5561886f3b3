// expect: drf
// options: --block-dim 128 --grid-dim 16
// A plain global array that a kernel names, as code written for
// GPUVerify does: nvcc would want `__device__`, GPUVerify's front end
// takes it for device memory, and so does drfscan. Each thread of the
// grid counts into its own cell.
unsigned counts[2048];

__global__ void tally(const int *keys, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    counts[i] += keys[i] > 0;
  }
}
