// expect: drf
// options: --block-dim 256
// A group normalisation's statistics: each warp (a tile of 32) reduces its
// threads' partial sums with cg::reduce, which hands every member the
// tile's total, and every member stores it into the warp's slot. Benign.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void group_sums(const float *x, float *out, int pixels) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  __shared__ float sums[8];
  float partial = 0.0f;
  for (int i = threadIdx.x; i < pixels; i += blockDim.x)
    partial += x[blockIdx.x * pixels + i];
  float total = cg::reduce(warp, partial, cg::plus<float>());
  sums[threadIdx.x / 32] = total;
  __syncthreads();
  if (threadIdx.x < 8)
    out[blockIdx.x * 8 + threadIdx.x] = sums[threadIdx.x];
}
