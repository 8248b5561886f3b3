// expect: racy
// As grid_a_multiple_of_a_host_value_drf.cu, but host code launches
// `2 * regions` blocks along x: with two blocks in a row, `gridDim.x >> 2`
// is 0 and every row's blocks write the same region.
#define QUARTER 64

__global__ void plane_quarters(float *plane, const float *src) {
  int region = blockIdx.y * (gridDim.x >> 2) + (blockIdx.x >> 2);
  float *mine = plane + region * 4 * QUARTER + (blockIdx.x & 3) * QUARTER;
  mine[threadIdx.x] = src[threadIdx.x] + blockIdx.y;
}

void run(float *plane, const float *src, int width, int rows) {
  int regions = (width + 3) / 4;
  dim3 grid, block;
  grid.x = 2 * regions;
  grid.y = rows;
  block.x = QUARTER;
  plane_quarters<<<grid, block>>>(plane, src);
}
