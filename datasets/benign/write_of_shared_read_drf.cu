// expect: drf
// options: --block-dim 128 --grid-dim 4
// write_of_own_read_racy.cu reading the block's first element instead: all
// threads of a block store the same value into the block's cell, a benign
// race.

__global__ void first_scaled(const int *in, int *out) {
  int x = in[blockIdx.x * 128] * 2;
  out[blockIdx.x] = x;
}
