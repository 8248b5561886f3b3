// expect: drf
// Preconditions given with __requires instead of a launch configuration:
// 1D blocks of any size and an offset at least the block size, so the
// cells read (t + off) are never the cells written (t).

__global__ void shift_copy(int off) {
  __requires(blockDim.y == 1);
  __requires(blockDim.z == 1);
  __requires(off >= blockDim.x);
  __shared__ int s[4096];
  int t = threadIdx.x;
  s[t] = s[t + off];
}
