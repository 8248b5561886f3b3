// expect: drf
// options: --block-dim 16,16 --grid-dim 8,8
// Index arithmetic through function-like macros and conditional compilation.

#define BLOCK 16
#define IDX2(row, col, width) ((row) * (width) + (col))
#define WIDTH (8 * BLOCK)

#ifndef SCALE
#define SCALE 3.0f
#endif

__global__ void scale_matrix(float *m) {
  int row = blockIdx.y * BLOCK + threadIdx.y;
  int col = blockIdx.x * BLOCK + threadIdx.x;
  m[IDX2(row, col, WIDTH)] = SCALE * m[IDX2(row, col, WIDTH)];
}
