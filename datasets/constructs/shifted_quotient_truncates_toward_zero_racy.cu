// expect: racy
// Each thread stores its sample one cell to the left, computed as
// `(2 * x - 1) / 2`. C's division truncates toward zero: thread 0 gets
// -1 / 2 == 0, the same cell as thread 1 (1 / 2 == 0). A division that
// floors would send thread 0 to -1 and see no race.
__global__ void shift_left(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[(2 * x - 1) / 2] = in[x];
}
