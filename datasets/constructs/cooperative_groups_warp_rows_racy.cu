// expect: racy
// `cooperative_groups_warp_rows_drf.cu` with the row of a tile taken in
// its block only: tiles of different blocks share rows.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void row_mean(float *mean, float *centred, const float *x, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = warp.meta_group_rank();
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = warp.thread_rank(); c < cols; c += warp.size())
    sum += x[row * cols + c];
  for (int o = 16; o > 0; o /= 2)
    sum += warp.shfl_xor(sum, o);
  float m = sum / cols;
  if (warp.thread_rank() == 0)
    mean[row] = m;
  for (int c = warp.thread_rank(); c < cols; c += warp.size())
    centred[row * cols + c] = x[row * cols + c] - m;
}
