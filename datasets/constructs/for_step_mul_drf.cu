// expect: drf
// options: --block-dim 16
// A for loop stepping by *= 2: thread t writes the power-of-two offsets of
// its own 64-cell row.

__global__ void mark_powers(void) {
  __shared__ int s[16 * 64];
  for (int k = 1; k < 64; k *= 2)
    s[threadIdx.x * 64 + k] = k;
}
