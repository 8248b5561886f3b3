// expect: drf
// options: --block-dim 64
// continue: the store is skipped for j = 1, so each thread writes only
// s[tid] (without the continue thread t would also write s[t + 1]).

__global__ void continue_skip(void) {
  __shared__ int s[128];
  int t = threadIdx.x;
  for (int j = 0; j < 2; j++) {
    if (j == 1)
      continue;
    s[t + j] = j;
  }
}
