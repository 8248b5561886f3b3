// expect: divergent
// A grid barrier only the even blocks reach: the odd blocks never arrive
// and the launch hangs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift_even_blocks(int *a) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x % 2 == 0) {
    int v = a[i + 1];
    grid.sync();
    a[i] = v;
  }
}
