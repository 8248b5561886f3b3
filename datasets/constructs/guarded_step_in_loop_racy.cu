// expect: racy
// options: --block-dim 16,25 --grid-dim 64
// guarded_step_in_loop_drf.cu stepping the place by half a grid's worth
// of pairs: the second round of block b lands on the first round of block
// b + 32.
#define ROWS 25
#define BLOCKS 64

__global__ void row_extremes(const float *in, float *out, int rounds) {
  unsigned idx = 2 * (threadIdx.y + ROWS * blockIdx.x);
  for (int r = 0; r < rounds; r++) {
    float v = in[((blockIdx.x * rounds + r) * ROWS + threadIdx.y) * 16 + threadIdx.x];
    if (threadIdx.x == 0) {
      out[idx] = v;
      out[idx + 1] = -v;
      idx += ROWS * BLOCKS;
    }
  }
}
