// expect: unsupported
// options: --block-dim 64 --grid-dim 4
// Mutually recursive __device__ functions that write memory: they cannot be
// inlined into the kernel.

__device__ void ping(int *a, int i, int depth);

__device__ void pong(int *a, int i, int depth) {
  a[i] = -depth;
  if (depth > 0)
    ping(a, i, depth - 1);
}

__device__ void ping(int *a, int i, int depth) {
  a[i] = depth;
  if (depth > 0)
    pong(a, i, depth - 1);
}

__global__ void ping_pong(int *a, int depth) {
  ping(a, blockIdx.x * blockDim.x + threadIdx.x, depth);
}
