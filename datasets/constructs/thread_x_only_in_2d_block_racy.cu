// expect: racy
// options: --block-dim 32,4
// A kernel written for 1D blocks launched with 32x4 threads: threads (x, 0)
// and (x, 1) have the same threadIdx.x and write the same shared cell.

__global__ void stage_row(const float *in) {
  __shared__ float row[32];
  row[threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
}
