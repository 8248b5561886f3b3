// expect: racy
// options: --block-dim 256 --grid-dim 16
// Shift by one through an alias: dst = a + 1, so thread i writes a[i + 1]
// while thread i + 1 reads a[i + 1].

__global__ void shift_right(float *a, int n) {
  float *dst = a + 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    dst[i] = a[i];
}
