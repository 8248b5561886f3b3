// expect: racy
// As its drf twin, but each block writes the cell of its pair: the blocks
// of one pair along x all write it, with different values.
__device__ void pair_of_block(int n, int *row, int *col) {
  int i = 0;
  for (int r = 0; r < n; r++) {
    for (int c = 0; c <= r; c++) {
      if (i == blockIdx.y) {
        *row = r;
        *col = c;
        return;
      }
      i++;
    }
  }
}

__global__ void covariance(float *out, const float *cov, int n) {
  int row, col;
  pair_of_block(n, &row, &col);
  __syncthreads();
  if (threadIdx.x == 0)
    out[row * n + col] = cov[blockIdx.x];
}
