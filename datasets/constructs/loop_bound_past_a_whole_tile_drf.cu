// expect: drf
// A tile loaded in whole strides: the loop runs while the next stride
// still fits (`offset + STRIDE <= TILE`), as GEMM kernels load their
// shared tiles. The bound on `offset` is the tile less one stride; each
// thread writes its own cell of each stride.
#define TILE 128
#define STRIDE 64

__global__ void load_tile(const float *in, float *out) {
  __shared__ float tile[TILE];
  for (unsigned offset = 0; offset + STRIDE <= TILE; offset += STRIDE)
    tile[threadIdx.x + offset] = in[blockIdx.x * TILE + threadIdx.x + offset] + offset;
  __syncthreads();
  out[blockIdx.x * STRIDE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

void launch(const float *in, float *out, int tiles) {
  load_tile<<<tiles, STRIDE>>>(in, out);
}
