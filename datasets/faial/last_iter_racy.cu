// expect: racy
// options: --block-dim 256
// Faial Table 1, test 3 (racy), Fig. 15 "last-iter": the write a[tid + 1]
// of the loop's last iteration meets the write a[tid + T] after the loop
// (T = blockDim.x): thread T-1 and thread 0 both write a[T] when n >= 1.

__global__ void last_iter(int n) {
  __shared__ int a[512];
  int tid = threadIdx.x;
  int T = blockDim.x;
  for (int x = 0; x < n; x++) {
    __syncthreads();
    a[tid + 1] = x;
  }
  a[tid + T] = tid;
}
