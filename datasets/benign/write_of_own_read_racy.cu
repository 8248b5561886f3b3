// expect: racy
// options: --block-dim 128 --grid-dim 4
// Every thread stores into one cell a value computed from its own input
// element: the values differ, so the writes race (not a benign race). The
// local is used only as the stored value, which must still be each
// thread's own.

__global__ void last_scaled(const int *in, int *out) {
  int x = in[blockIdx.x * 128 + threadIdx.x] * 2;
  out[blockIdx.x] = x;
}
