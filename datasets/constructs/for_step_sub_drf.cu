// expect: drf
// options: --block-dim 128
// A for loop stepping by -= blockDim.x from the top of a shared buffer: thread
// t writes the cells congruent to 1023 - t modulo the block size.

__global__ void fill_down(void) {
  __shared__ int s[1024];
  for (int j = 1023 - (int)threadIdx.x; j >= 0; j -= blockDim.x)
    s[j] = j;
}
