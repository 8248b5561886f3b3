// expect: drf
// options: --block-dim 64
// Each thread copies one row of four floats into the block's tile with
// memcpy and, after the barrier, the transposed column back out.
#include <string.h>
__global__ void copy_rows(float *out, const float *in) {
  __shared__ float tile[64 * 4];
  memcpy(&tile[threadIdx.x * 4], &in[(blockIdx.x * 64 + threadIdx.x) * 4], 4 * sizeof(float));
  __syncthreads();
  float col[4];
  for (int k = 0; k < 4; k++)
    col[k] = tile[(threadIdx.x % 4) * 64 / 4 + k];
  memcpy(&out[(blockIdx.x * 64 + threadIdx.x) * 4], col, sizeof(col));
}
