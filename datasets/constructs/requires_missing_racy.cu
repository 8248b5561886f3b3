// expect: racy
// options: --block-dim 128
// requires_drf.cu with a precondition too weak to exclude the race:
// with off = 1 thread t reads s[t + 1] while thread t + 1 writes it.

__global__ void shift_copy_weak(int off) {
  __requires(off >= 1);
  __shared__ int s[4096];
  int t = threadIdx.x;
  s[t] = s[t + off];
}
