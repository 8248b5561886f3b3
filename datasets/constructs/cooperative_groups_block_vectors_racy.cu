// expect: racy
// As `cooperative_groups_block_vectors_drf.cu`, but the result is written
// to the cell of the thread's index rather than the block's: thread 0 of
// block 1 and thread 1 of block 0 write the same cell.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sums(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ float partial[];
  unsigned int t = block.thread_index().x;
  unsigned int i = block.group_index().x * block.group_dim().x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  block.sync();
  for (unsigned int stride = block.group_dim().x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      partial[t] += partial[t + stride];
    block.sync();
  }
  if (t < 2)
    out[block.group_index().x + t] = partial[t];
}
