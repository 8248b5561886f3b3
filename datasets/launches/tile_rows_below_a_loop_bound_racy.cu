// expect: racy
// The same tile store, launched once more after the loop with nothing
// bounding `n`: for a matrix narrower than a tile (n < 16) the rows of the
// tile overlap and threads write each other's cells. drfscan suggests the
// precondition `n >= 16` that the caller has to keep.
#define TILE 16

__global__ void store_tile(float *m, int n, int offset) {
  for (int r = 0; r < TILE; r++)
    m[(offset + r) * n + offset + threadIdx.x] = r * 0.5f + threadIdx.x;
}

void factor(float *m, int n) {
  int i = 0;
  for (i = 0; i < n - TILE; i += TILE) {
    store_tile<<<1, TILE>>>(m, n, i);
  }
  store_tile<<<1, TILE>>>(m, n, i);
}
