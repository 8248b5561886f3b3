// expect: drf
// One warp-sized tile per row, in the cooperative-groups style: the row is
// the block's index times the tiles per block plus the tile's rank in the
// block, and each lane strides through the row by the tile's size.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void normalise_rows(float *out, const float *in, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows)
    return;
  const float *x = in + row * cols;
  float sum = 0.0f;
  for (int i = tile.thread_rank(); i < cols; i += tile.size())
    sum += x[i];
  sum = cg::reduce(tile, sum, cg::plus<float>());
  for (int i = tile.thread_rank(); i < cols; i += tile.size())
    out[row * cols + i] = x[i] / sum;
}
