// expect: drf
// options: --block-dim 128
// Early return: only threads 0..31 go on, each writing s[t] and s[t + 32];
// the statements after the return are guarded by t < 32.

__global__ void first_warp_only(void) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= 32)
    return;
  s[t] = 1;
  s[t + 32] = 2;
}
