// expect: drf
// options: --block-dim 64 --grid-dim 16
// Binned data in the shape of Parboil's mri-gridding: for each row, the
// block reads the row's start and end from a table no thread writes, then
// stages the row through shared memory one tile at a time. The tile count
// comes from memory, but every thread of the block reads the same two cells
// at the same row, so the barriers in the tile loop are reached by all.

__global__ void stage_rows(const unsigned *row_start, const float *in,
                           float *out, int rows) {
  __shared__ float tile[64];
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) {
    unsigned start = row_start[r];
    unsigned end = row_start[r + 1];
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
