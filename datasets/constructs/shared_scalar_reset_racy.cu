// expect: racy
// options: --block-dim 256 --grid-dim 16
// A __shared__ flag set by thread 0, read by everyone after a barrier, and
// reset by thread 0 in the same interval as the others' reads.

__global__ void flag_reset(const int *in, int *out) {
  __shared__ int flag;
  int g = blockIdx.x * blockDim.x + threadIdx.x;

  if (threadIdx.x == 0)
    flag = in[blockIdx.x];
  __syncthreads();

  if (flag)
    out[g] = 1;
  if (threadIdx.x == 0)
    flag = 0;
}
