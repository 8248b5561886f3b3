// expect: racy
// options: --block-dim 32,32 --grid-dim 64
// sized_extern_shared_drf.cu without its barrier: a thread reads the
// transposed cell of the tile before its owner has written it.
__global__ void transpose_tiles(float *m) {
  extern __shared__ float tile[32][32];
  const int base = blockIdx.x * 1024;
  tile[threadIdx.y][threadIdx.x] = m[base + threadIdx.y * 32 + threadIdx.x];
  m[base + threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
