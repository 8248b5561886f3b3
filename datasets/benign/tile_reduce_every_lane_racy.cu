// expect: racy
// options: --block-dim 256
// tile_reduce_every_lane_drf.cu reducing in tiles of 16 but storing into
// one slot per 32 threads: the two tiles of a warp store different totals.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void group_sums(const float *x, float *out, int pixels) {
  auto block = cg::this_thread_block();
  auto half_warp = cg::tiled_partition<16>(block);
  __shared__ float sums[8];
  float partial = 0.0f;
  for (int i = threadIdx.x; i < pixels; i += blockDim.x)
    partial += x[blockIdx.x * pixels + i];
  float total = cg::reduce(half_warp, partial, cg::plus<float>());
  sums[threadIdx.x / 32] = total;
  __syncthreads();
  if (threadIdx.x < 8)
    out[blockIdx.x * 8 + threadIdx.x] = sums[threadIdx.x];
}
