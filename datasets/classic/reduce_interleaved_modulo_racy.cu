// expect: racy
// options: --block-dim 256 --grid-dim 64
// Mutant of reduce_interleaved_drf.cu testing tid % s instead of
// tid % (2 * s): in round 1 every thread writes sdata[tid] while its left
// neighbour reads it.

#define THREADS 256

__global__ void reduce_interleaved_modulo(const float *in, float *out, int n) {
  __shared__ float sdata[2 * THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % s == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
