// expect: divergent
// options: --block-dim 256 --grid-dim 64
// Mutant of reduce_sequential_drf.cu: the barrier moved inside the
// thread-dependent branch, so threads with tid >= s skip it (barrier
// divergence, undefined behaviour in CUDA).

#define THREADS 256

__global__ void reduce_sequential_divergent(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
