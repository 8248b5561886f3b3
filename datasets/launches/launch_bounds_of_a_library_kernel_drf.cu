// expect: drf
// A library kernel nobody in the file launches: each row of its block
// writes one row of ROW cells, indexed by `threadIdx.x`. Its
// `__launch_bounds__(ROW)` promises blocks of at most ROW threads, and a
// launch of more fails, so no block is wider than a row.
#define ROW 256

__global__ void __launch_bounds__(ROW) scale_rows(float *out, const float *in, float k)
{
  // Only the first plane of blocks and threads works.
  if (blockIdx.y > 0 || blockIdx.z > 0 || threadIdx.z > 0)
    return;
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  out[row * ROW + threadIdx.x] = k * in[row * ROW + threadIdx.x];
}
