// expect: drf
// options: --block-dim 128 --grid-dim 8
// A barrier inside a branch on a kernel parameter: every thread of the block
// takes the same side, so the barrier is not divergent.

__global__ void maybe_reverse(float *data, int reverse) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  if (reverse) {
    s[t] = data[g];
    __syncthreads();
    data[g] = s[127 - t];
  }
}
