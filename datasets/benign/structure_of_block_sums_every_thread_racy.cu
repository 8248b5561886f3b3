// expect: racy
// As structure_of_block_sums_every_thread_drf.cu, but the second field is
// each thread's own value: the threads of a block store different
// structures in one slot.
#define THREADS 128

__global__ void block_moments(float2 *moments, const float *x, int n) {
  __shared__ float sums[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  sums[threadIdx.x] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  float2 m;
  m.x = sums[0] / THREADS;
  m.y = v;
  moments[blockIdx.x] = m;
}

void run(float2 *moments, const float *x, int n) {
  block_moments<<<(n + THREADS - 1) / THREADS, THREADS>>>(moments, x, n);
}
