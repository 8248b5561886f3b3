// expect: racy
// A library kernel nobody in the file launches: each row of its block
// writes one row of ROW cells, indexed by `threadIdx.x`. Its
// `__launch_bounds__(2 * ROW)` admits blocks twice as wide as a row: the
// second half of one row of threads writes the next row's cells.
#define ROW 256

__global__ void __launch_bounds__(2 * ROW) scale_rows(float *out, const float *in, float k)
{
  // Only the first plane of blocks and threads works.
  if (blockIdx.y > 0 || blockIdx.z > 0 || threadIdx.z > 0)
    return;
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  out[row * ROW + threadIdx.x] = k * in[row * ROW + threadIdx.x];
}
