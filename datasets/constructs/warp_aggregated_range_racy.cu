// expect: racy
// The mutant of `warp_aggregated_range_drf.cu` where the leader reserves a
// single slot for its whole group: members past the first write into the
// next group's range.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int reserve_slot(int *count) {
  cg::coalesced_group active = cg::coalesced_threads();
  int start = 0;
  if (active.thread_rank() == 0) start = atomicAdd(count, 1);
  start = active.shfl(start, 0);
  return start + active.thread_rank();
}

__global__ void keep_positive(int *dst, int *count, const int *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (src[i] > 0) dst[reserve_slot(count)] = src[i];
  }
}
