// expect: drf
// options: --block-dim 128
// A do-while loop with a block stride: thread t writes t, t + 128, ...

__global__ void fill_do_while(void) {
  __shared__ int s[512];
  int j = threadIdx.x;
  do {
    s[j] = j;
    j += blockDim.x;
  } while (j < 512);
}
