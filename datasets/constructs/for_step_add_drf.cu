// expect: drf
// options: --block-dim 64
// A for loop stepping by += 2: thread t writes the pairs at 4t and 4t + 2
// (and their right neighbours).

__global__ void fill_pairs(void) {
  __shared__ int s[256];
  for (int j = 4 * threadIdx.x; j < 4 * threadIdx.x + 4; j += 2) {
    s[j] = j;
    s[j + 1] = -j;
  }
}
