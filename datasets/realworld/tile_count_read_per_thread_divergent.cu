// expect: divergent
// options: --block-dim 64 --grid-dim 16
// tile_count_read_per_row_drf.cu with each thread reading the bounds of a
// row of its own (r + threadIdx.x % 2): threads of a block may run the tile
// loop a different number of times, and its barriers diverge.

__global__ void stage_rows_own_bounds(const unsigned *row_start, const float *in,
                                      float *out, int rows) {
  __shared__ float tile[64];
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) {
    unsigned start = row_start[r + threadIdx.x % 2];
    unsigned end = row_start[r + threadIdx.x % 2 + 1];
    for (unsigned x = 0; x < (end - start + 63) / 64; x++) {
      __syncthreads();
      if (start + x * 64 + threadIdx.x < end)
        tile[threadIdx.x] = in[start + x * 64 + threadIdx.x];
      __syncthreads();
      acc += tile[(threadIdx.x + 1) % 64];
    }
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}
