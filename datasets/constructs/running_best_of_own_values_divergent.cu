// expect: divergent
// running_best_from_block_value_drf.cu with each thread's best taken from
// its own column: threads skip different candidates, and some wait at a
// barrier the others have skipped.
__global__ void best_candidate(const int *score, const int *gain, int *out, int n) {
  __shared__ int gain_s;
  int best = -1;
  for (int i = 0; i < n; i++) {
    int s = score[blockIdx.x * n + i];
    if (s <= best) continue;
    if (threadIdx.x == 0) gain_s = gain[s];
    __syncthreads();
    int g = gain_s + score[i * blockDim.x + threadIdx.x];
    __syncthreads();
    if (g > best) best = g;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}
