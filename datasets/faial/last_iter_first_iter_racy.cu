// expect: racy
// options: --block-dim 256
// Faial Table 1, test 4 (racy), Fig. 15 "last-iter-first-iter": the last
// iteration of the nested loop (x = y = n writes a[tid + 2n]) races with the
// first iteration of the following loop (z = 2n writes a[tid + 2n + 1]):
// no barrier separates them (threads t + 1 and t, n >= 1).

__global__ void last_iter_first_iter(int n) {
  __shared__ int a[2048];
  int tid = threadIdx.x;
  for (int x = 1; x < n + 1; x++) {
    for (int y = 1; y < x + 1; y++) {
      __syncthreads();
      a[tid + x + y] = y;
    }
  }
  for (int z = 2 * n; z < 3 * n; z++) {
    a[tid + z + 1] = z;
    __syncthreads();
  }
}
