// expect: racy
// The tile of `loop_bound_past_a_whole_tile_drf.cu` stepped by half a
// stride: thread 32's first cell is thread 0's second, written with
// another value.
#define TILE 128
#define STRIDE 64

__global__ void load_tile(const float *in, float *out) {
  __shared__ float tile[TILE];
  for (unsigned offset = 0; offset + STRIDE <= TILE; offset += STRIDE / 2)
    tile[threadIdx.x + offset] = in[blockIdx.x * TILE + threadIdx.x + offset] + offset;
  __syncthreads();
  out[blockIdx.x * STRIDE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

void launch(const float *in, float *out, int tiles) {
  load_tile<<<tiles, STRIDE>>>(in, out);
}
