// expect: drf
// options: --block-dim 128 --grid-dim 8
// A barrier inside a branch on blockIdx: uniform within each block, so the
// even blocks reverse their segment and the odd blocks leave it alone.

__global__ void reverse_even_blocks(float *data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  if (blockIdx.x % 2 == 0) {
    s[t] = data[g];
    __syncthreads();
    data[g] = s[127 - t];
  }
}
