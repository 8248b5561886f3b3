// expect: drf
// A helper searches a triangle for the block's pair and answers through
// two pointers from inside its loops; a second one keeps the last index a
// loop passes it. After the loops the answers are values of some
// iteration, not of the loop variables: the block writes its own cell and
// only reads at the pair, and every thread writes its own column of the
// row the last index picks.
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

__device__ void keep(int *dst, int v) { *dst = v; }

__global__ void covariance(float *out, const float *cov, int n) {
  int row, col;
  pair_of_block(n, &row, &col);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.y * gridDim.x + blockIdx.x] = cov[row * n + col];
}

__global__ void last_row(float *out, int rows) {
  int last = 0;
  for (int j = 0; j < rows; j++)
    keep(&last, j);
  out[last * blockDim.x + threadIdx.x] = threadIdx.x;
}
