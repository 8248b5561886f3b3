// expect: racy
// options: --block-dim 64
// Each thread walks its pointer forward by the loop's counter (`p += j`):
// to offsets 0, 0, 1, 3, 6, 10, … of its ten-cell slot, so for n > 5 the
// walk of thread t reaches the slot of thread t + 1. A step naming the
// counter is no fixed step, and the walk is no induction.

__global__ void triangular_walk(int *a, int n) {
  int *p = a + threadIdx.x * 10;
  for (int j = 0; j < n; j++) {
    *p = threadIdx.x;
    p += j;
  }
}
