// expect: drf
// A structure of parameters passed by value, whose field `cols` is first
// read inside a branch (thread 0 clears its row's slot). The field is one
// value for every thread before, inside and after the branch: each block's
// row of `partial` is its own.
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
    p.out[blockIdx.x * p.cols + i] = p.partial[blockIdx.x * p.cols + i];
  }
}
