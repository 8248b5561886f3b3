// expect: racy
// param_field_first_read_in_branch_drf.cu reading one cell to the right:
// the last thread of a row reads the slot the next block's thread 0 clears.
struct RowParams {
  float *partial;
  float *out;
  int cols;
};

__global__ void finish_rows(RowParams p) {
  if (threadIdx.x == 0) {
    p.partial[blockIdx.x * p.cols] = 0.0f;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < p.cols; i += blockDim.x) {
    p.out[blockIdx.x * p.cols + i] = p.partial[blockIdx.x * p.cols + i + 1];
  }
}
