// expect: racy
// options: --block-dim 128
// Early return with an off-by-one bound: thread 32 survives and writes s[32],
// as does thread 0 through s[t + 32].

__global__ void first_warp_and_one(void) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= 33)
    return;
  s[t] = 1;
  s[t + 32] = 2;
}
