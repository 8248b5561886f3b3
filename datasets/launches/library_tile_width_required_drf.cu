// expect: drf
// The same library kernel with its assumption written down: under
// `__requires(blockDim.x <= 64)` no two threads of a block share a cell of
// `s`, nor a cell of `a`.
__global__ void rotate_tile(int *a) {
  __requires(blockDim.x <= 64);
  __shared__ int s[64];
  int base = blockIdx.x * 64;
  s[threadIdx.x % 64] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
