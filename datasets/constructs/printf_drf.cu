// expect: drf
// options: --block-dim 64 --grid-dim 4
#include <stdio.h>
// printf from device code next to shared-memory traffic.

__global__ void report_block_max(const int *in) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t == 0) {
    int m = s[0];
    for (int k = 1; k < 64; k++)
      m = max(m, s[k]);
    printf("block %d: max %d\n", blockIdx.x, m);
  }
}
