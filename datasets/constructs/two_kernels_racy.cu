// expect: racy
// options: --block-dim 128 --grid-dim 8
// Two kernels in one file, both racy: a reversal missing its barrier and a
// counter updated with a plain increment.

__global__ void reverse_block_nosync(int *data) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  s[t] = data[g];
  data[g] = s[127 - t];
}

__global__ void count_nonzero_plain(const int *data, int *count) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (data[g] != 0)
    *count += 1;
}
