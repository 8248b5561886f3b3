// expect: drf
// options: --block-dim 16,25 --grid-dim 64
// The first thread of each row of a block stores a pair per round and
// steps its place only then (`if (threadIdx.x == 0) { out[idx] = …;
// idx += STRIDE; }`), as per-block min/max passes write: where the
// condition holds the place is its start plus the round times the stride.
// Each row's pairs of a round are apart, and rounds a whole grid's worth.
#define ROWS 25
#define BLOCKS 64

__global__ void row_extremes(const float *in, float *out, int rounds) {
  unsigned idx = 2 * (threadIdx.y + ROWS * blockIdx.x);
  for (int r = 0; r < rounds; r++) {
    float v = in[((blockIdx.x * rounds + r) * ROWS + threadIdx.y) * 16 + threadIdx.x];
    if (threadIdx.x == 0) {
      out[idx] = v;
      out[idx + 1] = -v;
      idx += 2 * ROWS * BLOCKS;
    }
  }
}
