// expect: drf
// A reduction written once for any cooperative group, called with the
// block: inside `group_sum` the group is a `thread_group`, so its size,
// its ranks and its barrier are those of the block it was made from, and
// the halving loop is the same for every thread. A tile made at run time
// from a constant width (`tiled_partition(block, 32)`) is a warp's tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float group_sum(cg::thread_group g, float *scratch, float v) {
  unsigned int rank = g.thread_rank();
  for (unsigned int half = g.size() / 2; half > 0; half /= 2) {
    scratch[rank] = v;
    g.sync();
    if (rank < half)
      v += scratch[rank + half];
    g.sync();
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

__global__ void warp_totals(const float *in, float *out, int n) {
  __shared__ float scratch[256];
  cg::thread_group warp = cg::tiled_partition(cg::this_thread_block(), 32);
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *mine = scratch + (threadIdx.x / 32) * 32;
  float total = group_sum(warp, mine, i < n ? in[i] : 0.0f);
  if (warp.thread_rank() == 0)
    out[i / 32] = total;
}

int main() {
  float *in, *out;
  block_totals<<<64, 256, 256 * sizeof(float)>>>(in, out, 64 * 256);
  warp_totals<<<64, 256>>>(in, out, 64 * 256);
  return 0;
}
