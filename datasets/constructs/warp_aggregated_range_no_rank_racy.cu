// expect: racy
// The mutant of `warp_aggregated_range_drf.cu` where each member writes at
// the start of its group's range and forgets its rank: the group's members
// all write one slot.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void keep_positive_tile(int *dst, int *count, const int *src, int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? src[i] : 0;
  int start;
  if (warp.thread_rank() == 0) start = atomicAdd(count, warp.size());
  start = warp.shfl(start, 0);
  dst[start] = v;
}
