// expect: racy
// The reduction for any cooperative group without its second barrier: a
// thread stores its next partial sum into `scratch` while a neighbour of
// the group may still be reading the previous one. The group is the block
// (a `thread_group` parameter bound to it), so the barrier that remains
// orders the whole block and the race is between its turns.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float group_sum(cg::thread_group g, float *scratch, float v) {
  unsigned int rank = g.thread_rank();
  for (unsigned int half = g.size() / 2; half > 0; half /= 2) {
    scratch[rank] = v;
    g.sync();
    if (rank < half)
      v += scratch[rank + half];
  }
  return v;
}

__global__ void block_totals(const float *in, float *out, int n) {
  extern __shared__ float scratch[];
  cg::thread_block block = cg::this_thread_block();
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float total = group_sum(block, scratch, i < n ? in[i] : 0.0f);
  if (block.thread_rank() == 0)
    out[blockIdx.x] = total;
}

int main() {
  float *in, *out;
  block_totals<<<64, 256, 256 * sizeof(float)>>>(in, out, 64 * 256);
  return 0;
}
