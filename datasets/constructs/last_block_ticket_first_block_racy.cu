// expect: racy
// The mutant of `last_block_ticket_drf.cu` where the block drawing the
// first ticket folds the partials, while the other blocks still write them.

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
    last = ticket == 0;
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
