// expect: divergent
// early_return_whole_blocks_drf.cu with the block size read from the
// command line: over `n = 1 << 20` elements, a block that does not divide
// `n` leaves the last block's threads past the end, which return before
// the barriers the others wait at. The launch fixes `n`, and the report
// still names it in the precondition that removes the divergence.
#include <stdlib.h>

__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int tid = threadIdx.x;
  int idx = blockIdx.x * blockDim.x + tid;
  if (idx >= n)
    return;
  s[tid] = in[idx];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n + threads - 1) / threads * sizeof(float));
  block_sums<<<(n + threads - 1) / threads, threads>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
