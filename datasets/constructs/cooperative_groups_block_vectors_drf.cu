// expect: drf
// A block reduction written with a cooperative group's vector queries:
// `block.group_dim().x` is the block's width and `block.thread_index().x`
// the thread's index in it, so the halving loop is the same for every
// thread and its barrier is reached by all of them.
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
  if (t == 0)
    out[block.group_index().x] = partial[0];
}
