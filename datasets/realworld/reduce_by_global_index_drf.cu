// expect: drf
// Interleaved block sum that picks its active threads by the global index
// (a multiple of 2s in round s), launched with a block size the host reads
// at run time: the guards of the two threads differ by s, so one can read
// sum[t + s] only where the other does not write it. A remainder by the
// loop's own variable; no launch constant to lean on.

__global__ void block_sums(float *sums, const float *x, unsigned int n) {
  extern __shared__ float sum[];
  unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  sum[threadIdx.x] = g < n ? x[g] : 0.0f;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s <<= 1) {
    if (g % (2 * s) == 0)
      sum[threadIdx.x] += sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = sum[0];
}

void total(float *sums, const float *x, unsigned int n, int threads) {
  unsigned int blocks = (n + threads - 1) / threads;
  block_sums<<<blocks, threads, threads * sizeof(float)>>>(sums, x, n);
}
