// expect: racy
// options: --block-dim 64
// memcpy_tile_rows_drf.cu copying five floats per row of four: each
// thread's copy spills into the first cell of the next thread's row.
#include <string.h>
__global__ void copy_rows(float *out, const float *in) {
  __shared__ float tile[64 * 4 + 1];
  memcpy(&tile[threadIdx.x * 4], &in[(blockIdx.x * 64 + threadIdx.x) * 4], 5 * sizeof(float));
  __syncthreads();
  float col[4];
  for (int k = 0; k < 4; k++)
    col[k] = tile[(threadIdx.x % 4) * 64 / 4 + k];
  memcpy(&out[(blockIdx.x * 64 + threadIdx.x) * 4], col, sizeof(col));
}
