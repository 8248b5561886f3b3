// expect: drf
// options: --block-dim 256
// Faial Table 1, test 3 (DRF), Fig. 15 "last-iter": as last_iter_racy.cu,
// but the last thread does not write in the loop, so the loop writes stay
// in a[1 .. T-1] and the final writes in a[T .. 2T-1].

__global__ void last_iter(int n) {
  __shared__ int a[512];
  int tid = threadIdx.x;
  int T = blockDim.x;
  for (int x = 0; x < n; x++) {
    __syncthreads();
    if (tid < T - 1) {
      a[tid + 1] = x;
    }
  }
  a[tid + T] = tid;
}
