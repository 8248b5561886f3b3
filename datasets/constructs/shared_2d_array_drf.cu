// expect: drf
// options: --block-dim 32,8 --grid-dim 16
// A 2D shared tile: every thread stores one cell, then the first thread of
// each row sums the row into a second shared array, then row sums are
// written out by the first threads of row 0.

#define W 32
#define H 8

__global__ void row_sums(const float *in, float *out) {
  __shared__ float tile[H][W];
  __shared__ float sums[H];
  int x = threadIdx.x;
  int y = threadIdx.y;

  tile[y][x] = in[blockIdx.x * W * H + y * W + x];
  __syncthreads();

  if (x == 0) {
    float acc = 0.0f;
    for (int k = 0; k < W; k++)
      acc += tile[y][k];
    sums[y] = acc;
  }
  __syncthreads();

  if (y == 0 && x < H)
    out[blockIdx.x * H + x] = sums[x];
}
