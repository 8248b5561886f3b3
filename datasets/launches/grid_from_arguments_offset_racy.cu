// expect: racy
// As `grid_from_arguments_offset_drf.cu`, but the grid has one tile too
// many each way (`(n - k) / 16`): the last tile of a row writes past its
// end, into the first cells of the next row, which the first step reads.
#define T 16

__global__ void update_trailing(float *a, int n, int k) {
  int row = k + (blockIdx.y + 1) * T + threadIdx.y;
  int col = k + (blockIdx.x + 1) * T + threadIdx.x;
  a[row * n + col] -= a[row * n + k] * a[k * n + col];
}

void factor(float *a, int n) {
  dim3 block(T, T);
  for (int k = 0; k < n - T; k += T) {
    dim3 grid((n - k) / T, (n - k) / T);
    update_trailing<<<grid, block>>>(a, n, k);
  }
}
