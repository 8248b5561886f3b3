// expect: racy
// A library kernel nobody in the tree launches, written for blocks of at
// most 64 threads: `s` has one cell per thread of such a block. In a wider
// block threads t and t + 64 share a cell, so the kernel is racy for some
// launch; drfscan says which block width removes the race
// (`__requires(blockDim.x <= 64)`), and the race is possible, not confirmed.
__global__ void rotate_tile(int *a) {
  __shared__ int s[64];
  int base = blockIdx.x * 64;
  s[threadIdx.x % 64] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
