// expect: drf
// options: --block-dim 256 --grid-dim 64
// Interleaved block sum with a strided index instead of a modulo test: the
// first blockDim / 2s threads each combine cells 2*s*tid and 2*s*tid + s.

#define THREADS 256

__global__ void reduce_interleaved_strided(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
