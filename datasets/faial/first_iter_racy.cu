// expect: racy
// options: --block-dim 256
// Faial Table 1, test 2 (racy), Fig. 15 "first-iter": the write a[tid + 1]
// before the loop meets the write a[tid] of the loop's first iteration in
// the same barrier interval (threads t and t + 1 both write a[t + 1]).

__global__ void first_iter(int n) {
  __shared__ int a[512];
  int tid = threadIdx.x;
  a[tid + 1] = tid;
  for (int x = 0; x < n; x++) {
    a[tid] = x;
    __syncthreads();
  }
}
