// expect: drf
// options: --block-dim 256
// Faial Table 1, test 2 (DRF), Fig. 15 "first-iter": as first_iter_racy.cu,
// but the loop body skips its first iteration, so a[tid] is only written
// after at least one barrier.

__global__ void first_iter(int n) {
  __shared__ int a[512];
  int tid = threadIdx.x;
  a[tid + 1] = tid;
  for (int x = 0; x < n; x++) {
    if (x > 0) {
      a[tid] = x;
    }
    __syncthreads();
  }
}
