// expect: drf
// Stream compaction with warp-aggregated atomics: the threads that keep an
// element form a coalesced group, its leader reserves one slot per member
// with a single atomicAdd of the group's size, and each member writes at
// the range's start (broadcast from the leader) plus its rank in the group.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int reserve_slot(int *count) {
  cg::coalesced_group active = cg::coalesced_threads();
  int start = 0;
  if (active.thread_rank() == 0) start = atomicAdd(count, active.size());
  start = active.shfl(start, 0);
  return start + active.thread_rank();
}

__global__ void keep_positive(int *dst, int *count, const int *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (src[i] > 0) dst[reserve_slot(count)] = src[i];
  }
}

// The same with a warp-sized tile of the block, whose size is known.
__global__ void keep_positive_tile(int *dst, int *count, const int *src, int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? src[i] : 0;
  int start;
  if (warp.thread_rank() == 0) start = atomicAdd(count, warp.size());
  start = warp.shfl(start, 0);
  dst[start + warp.thread_rank()] = v;
}
