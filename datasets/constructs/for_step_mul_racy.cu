// expect: racy
// options: --block-dim 64
// A for loop stepping by *= 2 whose rows overlap: thread 0 writes s[2]
// (k = 2) and thread 1 writes s[2] (k = 1).

__global__ void mark_powers_overlapping(void) {
  __shared__ int s[128];
  for (int k = 1; k < 64; k *= 2)
    s[threadIdx.x + k] = k;
}
