// expect: drf
// options: --block-dim 256 --grid-dim 64
// Block sum with sequential addressing: in round s the first s threads add
// the upper half onto the lower half; one barrier per round.

#define THREADS 256

__global__ void reduce_sequential(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
