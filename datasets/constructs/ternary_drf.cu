// expect: drf
// options: --block-dim 32
// A conditional expression in the index: the lower half of the warp keeps
// its slot, the upper half mirrors into 16..31; a permutation.

__global__ void fold_index(void) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t < 16 ? t : 47 - t] = t;
}
