// expect: racy
// The block sum of reduce_by_global_index_drf.cu with the guard `g % s`:
// in round 1 every thread adds its right neighbour's slot while that
// neighbour writes it.

__global__ void block_sums(float *sums, const float *x, unsigned int n) {
  extern __shared__ float sum[];
  unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  sum[threadIdx.x] = g < n ? x[g] : 0.0f;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s <<= 1) {
    if (g % s == 0)
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
