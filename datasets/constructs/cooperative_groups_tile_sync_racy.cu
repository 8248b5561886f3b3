// expect: racy
// options: --block-dim 256
// The same tree sum without the tile barrier after each level's writes:
// lane 8 adds into `s[base + 8]` at `o == 16` while lane 0 reads that cell
// at `o == 8`.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sums(const int *in, int *out) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int base = tile.meta_group_rank() * 32;
  int lane = tile.thread_rank();
  s[base + lane] = in[blockIdx.x * 256 + block.thread_rank()];
  tile.sync();
  for (int o = 16; o > 0; o /= 2) {
    int v = 0;
    if (lane < o)
      v = s[base + lane + o];
    tile.sync();
    if (lane < o)
      s[base + lane] += v;
  }
  if (lane == 0)
    out[blockIdx.x * 8 + tile.meta_group_rank()] = s[base];
}
