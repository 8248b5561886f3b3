// expect: racy
// options: --block-dim 64 --grid-dim 1
// bitonic_step_partners_drf.cu where both partners of a pair swap: the
// thread at i and the one at i ^ j write each other's keys.
__global__ void bitonic_step(int *keys, unsigned int n, unsigned int j, unsigned int k) {
  unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned int partner = i ^ j;
  if (i < n && partner != i) {
    int a = keys[i];
    int b = keys[partner];
    bool ascending = (i & k) == 0;
    if ((a > b) == ascending) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}
