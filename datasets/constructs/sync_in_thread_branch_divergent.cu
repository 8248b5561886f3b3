// expect: divergent
// options: --block-dim 128 --grid-dim 8
// A barrier inside a branch on the thread id: the odd threads never reach
// it.

__global__ void reverse_even_threads(float *data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  if (t % 2 == 0) {
    s[t] = data[g];
    __syncthreads();
    data[g] = s[126 - t];
  }
}
