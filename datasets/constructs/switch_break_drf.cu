// expect: drf
// options: --block-dim 64
// As switch_fallthrough_racy.cu with a break after case 0: even threads write
// s[t], odd threads s[t | 1] = s[t].

__global__ void switch_break(void) {
  __shared__ int s[64];
  int t = threadIdx.x;
  switch (t % 2) {
  case 0:
    s[t] = 0;
    break;
  case 1:
    s[t | 1] = 1;
    break;
  default:
    break;
  }
}
