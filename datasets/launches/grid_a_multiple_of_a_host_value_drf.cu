// expect: drf
// Four blocks along x share one region of a plane, each its quarter
// (`blockIdx.x & 3`), and regions are numbered by `blockIdx.x >> 2` within
// a row of `gridDim.x >> 2`. That holds when the grid is a whole number of
// fours, which host code ensures by launching `4 * regions` blocks along x,
// a count it computes at run time.
#define QUARTER 64

__global__ void plane_quarters(float *plane, const float *src) {
  int region = blockIdx.y * (gridDim.x >> 2) + (blockIdx.x >> 2);
  float *mine = plane + region * 4 * QUARTER + (blockIdx.x & 3) * QUARTER;
  mine[threadIdx.x] = src[threadIdx.x] + blockIdx.y;
}

void run(float *plane, const float *src, int width, int rows) {
  int regions = (width + 3) / 4;
  dim3 grid, block;
  grid.x = 4 * regions;
  grid.y = rows;
  block.x = QUARTER;
  plane_quarters<<<grid, block>>>(plane, src);
}
