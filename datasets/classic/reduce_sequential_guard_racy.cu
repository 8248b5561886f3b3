// expect: racy
// options: --block-dim 256 --grid-dim 64
// Mutant of reduce_sequential_drf.cu with an off-by-one guard (<= instead of
// <): in round s thread s writes sdata[s] while thread 0 reads it.

#define THREADS 256

__global__ void reduce_sequential_guard(const float *in, float *out, int n) {
  __shared__ float sdata[2 * THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid <= s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
