// expect: drf
// options: --block-dim 64 --grid-dim 1
// One step of a bitonic sort over global memory: thread i compares and
// swaps keys[i] with keys[i ^ j], and only the lower of the two partners
// does. Exclusive or by one value pairs every index with exactly one
// other, so the pairs the threads take are disjoint for every j.
__global__ void bitonic_step(int *keys, unsigned int n, unsigned int j, unsigned int k) {
  unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned int partner = i ^ j;
  if (i < n && partner > i) {
    int a = keys[i];
    int b = keys[partner];
    bool ascending = (i & k) == 0;
    if ((a > b) == ascending) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}
