// expect: racy
// options: --block-dim 256
// Faial Table 1, test 5 (racy), Fig. 16 "read-index": each thread reads back
// its own id and writes A[x + 1], i.e. A[tid + 1], which thread tid + 1 also
// writes (A[tid + 1] = tid + 1) with no barrier in between.

__global__ void read_index(void) {
  __shared__ int A[512];
  int tid = threadIdx.x;
  A[tid] = tid;
  int x = A[tid];
  A[x + 1] = 0;
}
