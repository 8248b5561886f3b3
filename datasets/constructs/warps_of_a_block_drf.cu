// expect: drf
// `warps_of_a_block_racy.cu` for blocks of whole warps: the warp of a
// thread is then below the block's count of warps, and rows are the
// grid's warps, one each.

__global__ void scale_rows(float *out, const float *in, int rows, int cols) {
  __requires(blockDim.x % 32 == 0);
  int lane = threadIdx.x % 32;
  int warps = blockDim.x / 32;
  int row = blockIdx.x * warps + threadIdx.x / 32;
  if (row >= rows) return;
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = 2.0f * in[row * cols + c];
}
