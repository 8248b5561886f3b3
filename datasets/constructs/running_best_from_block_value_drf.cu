// expect: drf
// A running best over candidates the block reads alike: a candidate no
// better than the best so far is skipped by every thread, and the best is
// updated from the value thread 0 published, so the barriers of the
// candidates taken are reached by the whole block.
__global__ void best_candidate(const int *score, const int *gain, int *out, int n) {
  __shared__ int gain_s;
  int best = -1;
  for (int i = 0; i < n; i++) {
    int s = score[blockIdx.x * n + i];
    if (s <= best) continue;
    if (threadIdx.x == 0) gain_s = gain[s];
    __syncthreads();
    int g = gain_s;
    __syncthreads();
    if (g > best) best = g;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}
