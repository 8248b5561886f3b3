// expect: drf
// options: --block-dim 256 --grid-dim 32
// Dot product: grid-stride partial sums per thread, a shared-memory tree
// reduction per block, and one atomicAdd per block into the result.

#define THREADS 256

__global__ void dot_product(const float *a, const float *b, float *result, int n) {
  __shared__ float cache[THREADS];
  int tid = threadIdx.x;

  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    sum += a[i] * b[i];
  cache[tid] = sum;
  __syncthreads();

  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    atomicAdd(result, cache[0]);
}
