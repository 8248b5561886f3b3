// expect: drf
// options: --block-dim 32,32 --grid-dim 64
// `extern __shared__` with a size, which nvcc reads as the block's
// dynamic shared memory and clang refuses: a tile transposed through it,
// with a barrier between the writes and the reads.
__global__ void transpose_tiles(float *m) {
  extern __shared__ float tile[32][32];
  const int base = blockIdx.x * 1024;
  tile[threadIdx.y][threadIdx.x] = m[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  m[base + threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
