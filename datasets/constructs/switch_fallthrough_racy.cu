// expect: racy
// options: --block-dim 64
// switch with fall-through: even threads run case 0 and then case 1, so
// thread 2k writes its id to s[2k | 1] = s[2k + 1], which thread 2k + 1
// also writes (with its own id).

__global__ void switch_fallthrough(void) {
  __shared__ int s[64];
  int t = threadIdx.x;
  switch (t % 2) {
  case 0:
    s[t] = 0;
    /* fall through */
  case 1:
    s[t | 1] = t;
    break;
  default:
    break;
  }
}
