// expect: racy
// grid_sync_two_phase_drf.cu with the grid barrier replaced by a block
// barrier, which orders nothing between blocks: block 0 reads partial
// sums other blocks may still be writing.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase_sum(const float *in, float *partial, float *total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float acc[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc[threadIdx.x] = i < n ? in[i] : 0.0f;
  block.sync();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < blockDim.x; k++) s += acc[k];
    partial[blockIdx.x] = s;
  }
  block.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float s = 0.0f;
    for (int b = 0; b < gridDim.x; b++) s += partial[b];
    *total = s;
  }
}
