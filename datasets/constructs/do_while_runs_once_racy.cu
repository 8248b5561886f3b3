// expect: racy
// options: --block-dim 64
// The body of a do-while runs at least once: every thread writes s[n] even
// though the condition k < n is false from the start.

__global__ void do_while_once(int n) {
  __shared__ int s[1024];
  int k = n;
  do {
    s[k] = threadIdx.x;
    k++;
  } while (k < n);
}
