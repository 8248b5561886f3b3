// expect: drf
// options: --block-dim 128 --grid-dim 8
// Two kernels in one file, both race-free: a block-local reversal through
// shared memory and a global counter updated with atomics.

__global__ void reverse_block(int *data) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  s[t] = data[g];
  __syncthreads();
  data[g] = s[127 - t];
}

__global__ void count_nonzero(const int *data, int *count) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (data[g] != 0)
    atomicAdd(count, 1);
}
