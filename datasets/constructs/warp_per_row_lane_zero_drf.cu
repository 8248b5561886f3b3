// expect: drf
// The warp-per-row product of warp_per_row_lane_zero_racy.cu with the block
// one warp wide, as its callers must ensure: one lane 0 per row.
__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_xor_sync(0xffffffff, v, d);
  return v;
}

__global__ void gemv_rows(const float *a, const float *x, float *y, int rows,
                          int cols) {
  __requires(blockDim.x == 32);
  int lane = threadIdx.x % 32;
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < rows) {
    float sum = 0.0f;
    for (int k = lane; k < cols; k += 32)
      sum += a[row * cols + k] * x[k];
    sum = warp_sum(sum);
    if (lane == 0)
      y[row] = sum;
  }
}
