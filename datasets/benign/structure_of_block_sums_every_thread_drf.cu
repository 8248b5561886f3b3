// expect: drf
// A block reduces a mean and a sum of squares into shared memory, then
// every thread stores both, as one `float2`, into its block's slot: the
// same structure from each thread, which GPU code does instead of
// guarding the store with `threadIdx.x == 0`. Both stores of one slot
// hold equal fields, so the write-write pair is benign. `make_float2`
// builds the second one.
#define THREADS 128

__global__ void block_moments(float2 *moments, float2 *again, const float *x, int n) {
  __shared__ float sums[2][THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  sums[0][threadIdx.x] = v;
  sums[1][threadIdx.x] = v * v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sums[0][threadIdx.x] += sums[0][threadIdx.x + s];
      sums[1][threadIdx.x] += sums[1][threadIdx.x + s];
    }
    __syncthreads();
  }
  float2 m;
  m.x = sums[0][0] / THREADS;
  m.y = sums[1][0];
  moments[blockIdx.x] = m;
  again[blockIdx.x] = make_float2(sums[0][0], sums[1][0]);
}

void run(float2 *moments, float2 *again, const float *x, int n) {
  block_moments<<<(n + THREADS - 1) / THREADS, THREADS>>>(moments, again, x, n);
}
