// expect: drf
// options: --block-dim 256
// Faial Table 1, test 5 (DRF), Fig. 16 "read-index": the index x is the value
// this thread itself wrote to A[tid] (no other thread writes A[tid]), so
// A[x] is A[tid]. Protocols that forget values see A[x] with x unknown and
// raise a false alarm; a front-end that tracks the value a thread wrote
// itself proves it race-free.

__global__ void read_index(void) {
  __shared__ int A[512];
  int tid = threadIdx.x;
  A[tid] = tid;
  int x = A[tid];
  A[x] = 0;
}
