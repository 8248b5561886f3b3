// expect: drf
// One pass over the grid: every block writes its partial maximum, thread 0
// fences and takes a ticket from a counter; the block that draws the last
// ticket (all others have written and fenced before it) folds the partials
// and resets the counter for the next launch.

__global__ void grid_max(const float *in, float *partial, float *result,
                         unsigned int *done, int n) {
  __shared__ float best[128];
  __shared__ bool last;
  int t = threadIdx.x;
  int i = blockIdx.x * 128 + t;
  best[t] = i < n ? in[i] : -1e30f;
  __syncthreads();
  for (int s = 64; s > 0; s /= 2) {
    if (t < s) best[t] = fmaxf(best[t], best[t + s]);
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = best[0];
    __threadfence();
    unsigned int ticket = atomicAdd(done, 1);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    float m = -1e30f;
    for (int b = t; b < gridDim.x; b += 128) m = fmaxf(m, partial[b]);
    best[t] = m;
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
      if (t < s) best[t] = fmaxf(best[t], best[t + s]);
      __syncthreads();
    }
    if (t == 0) {
      *result = best[0];
      *done = 0;
    }
  }
}

void launch(const float *in, float *partial, float *result, unsigned int *done, int n) {
  grid_max<<<(n + 127) / 128, 128>>>(in, partial, result, done, n);
}
