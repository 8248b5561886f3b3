// expect: racy
// No launch configuration is given, so every block shape is possible,
// including 2D ones: threads (x, 0) and (x, 1) write the same cell. The same
// kernel with --block-dim 128 (y = z = 1) is race-free.

__global__ void stage_ids(void) {
  __shared__ int ids[1024];
  ids[threadIdx.x] = threadIdx.x;
}
