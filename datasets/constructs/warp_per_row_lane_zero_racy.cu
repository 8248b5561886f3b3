// expect: racy
// A matrix-vector product with one warp per row along y: each lane sums a
// strided part of the row, the warp adds the parts up, and lane 0 writes
// the row's result. Nothing launches it, so the block may be wider than a
// warp along x, and then lanes 0 of two warps write one row: possible,
// with `__requires(blockDim.x <= 32)` suggested.
__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_xor_sync(0xffffffff, v, d);
  return v;
}

__global__ void gemv_rows(const float *a, const float *x, float *y, int rows,
                          int cols) {
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
