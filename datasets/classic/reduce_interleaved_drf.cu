// expect: drf
// options: --block-dim 256 --grid-dim 64
// Block sum with interleaved addressing: in round s (1, 2, 4, ...) the
// threads whose id is a multiple of 2s add sdata[tid + s] onto sdata[tid].

#define THREADS 256

__global__ void reduce_interleaved(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
