// expect: drf
// A blocked factorisation writes one 16-row tile per pass. The host loop
// over tile offsets runs while `offset < n - TILE`, so every launch sees a
// row length of more than 16 and the rows of the tile never overlap. The
// counter is declared before the loop, as C89-style host code does.
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
}
