// expect: racy
// options: --block-dim 32
// A conditional expression mapping threads 2k and 2k + 1 to the same slot.

__global__ void pair_index(void) {
  __shared__ int s[32];
  int t = threadIdx.x;
  int j = (t % 2 == 0) ? t : t - 1;
  s[j] = t;
}
