// expect: racy
// The asynchronous tile copy of group_memcpy_async_drf.cu without the
// wait: a thread reads a cell another thread's share of the copy may still
// be writing.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(float) * 256);
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
  float *in, *out;
  reverse_tiles<<<64, 256>>>(in, out);
  return 0;
}
