// expect: racy
// One warp per row, the warps of a block counted as `blockDim.x / 32`. In a
// block that is not a whole number of warps (8 threads: no warp at all)
// every block starts at row 0, and blocks write one another's rows. The
// race is possible, not confirmed: `__requires(blockDim.x % 32 == 0)`
// removes it (`warps_of_a_block_drf.cu`).

__global__ void scale_rows(float *out, const float *in, int rows, int cols) {
  int lane = threadIdx.x % 32;
  int warps = blockDim.x / 32;
  int row = blockIdx.x * warps + threadIdx.x / 32;
  if (row >= rows) return;
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = 2.0f * in[row * cols + c];
}
