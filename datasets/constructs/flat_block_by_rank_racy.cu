// expect: racy
// Thread 0 along x takes the block's work item, and the block's threads
// then work by their rank in the block, which counts y and z too. Nothing
// fixes the block to one dimension: in a block of two rows two threads
// take an item each and both write `item`. The race is possible with
// `__requires(blockDim.y == 1 && blockDim.z == 1)` suggested.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void take_items(float *data, unsigned int *next) {
  __shared__ unsigned int item;
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 0) item = atomicAdd(next, 1);
  block.sync();
  data[item * block.size() + block.thread_rank()] *= 2.0f;
}
