// expect: racy
// options: --block-dim 64
// continue skips j = 1 only: thread 0 writes s[2] (j = 2) and thread 2 writes
// s[2] (j = 0).

__global__ void continue_skip_middle(void) {
  __shared__ int s[128];
  int t = threadIdx.x;
  for (int j = 0; j < 3; j++) {
    if (j == 1)
      continue;
    s[t + j] = j;
  }
}
