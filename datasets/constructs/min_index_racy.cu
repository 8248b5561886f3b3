// expect: racy
// options: --block-dim 64
// min() in an index clamps threads 31..63 onto the same cell s[31].

__global__ void clamp_slot(void) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[min(t, 31)] = t;
}
