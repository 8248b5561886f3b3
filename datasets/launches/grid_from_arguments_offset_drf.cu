// expect: drf
// The trailing update of a blocked factorisation: step k updates the tiles
// right of and below the k-th tile row and column. The host sizes the grid
// from the matrix width and the step it passes (`(n - k) / 16 - 1` tiles
// each way), so no tile reaches past the end of a row, where it would
// write the cells of the next row that other threads read.
#define T 16

__global__ void update_trailing(float *a, int n, int k) {
  int row = k + (blockIdx.y + 1) * T + threadIdx.y;
  int col = k + (blockIdx.x + 1) * T + threadIdx.x;
  a[row * n + col] -= a[row * n + k] * a[k * n + col];
}

void factor(float *a, int n) {
  dim3 block(T, T);
  for (int k = 0; k < n - T; k += T) {
    dim3 grid((n - k) / T - 1, (n - k) / T - 1);
    update_trailing<<<grid, block>>>(a, n, k);
  }
}
