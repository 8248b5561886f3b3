// expect: drf
// A block copies its tile into shared memory with cooperative groups'
// asynchronous copy (each thread its share of the cells) and waits for it
// (`cg::wait`: the copy is done and the block synchronized) before the
// threads read the tile reversed.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
  float *in, *out;
  reverse_tiles<<<64, 256>>>(in, out);
  return 0;
}
