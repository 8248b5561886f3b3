// expect: racy
// options: --block-dim 256 --grid-dim 64
// Block sum whose last six rounds are "warp-synchronous": the first warp
// keeps reducing through a volatile pointer with no barrier. Without
// __syncwarp the lanes are not ordered (independent thread scheduling since
// Volta): lane 0 reads sdata[16] while lane 16 writes it.

#define THREADS 256

__device__ void warp_reduce(volatile float *s, unsigned int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce_warp_volatile(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid < 32)
    warp_reduce(sdata, tid);

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
