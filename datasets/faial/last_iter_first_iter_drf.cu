// expect: drf
// options: --block-dim 256
// Faial Table 1, test 4 (DRF), Fig. 15 "last-iter-first-iter": as the racy
// variant but the second loop writes a[tid + z]; the last nested iteration
// and the first z iteration then write a[tid + 2n] each, one cell per thread.

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
    a[tid + z] = z;
    __syncthreads();
  }
}
