// expect: racy
// negated_half_pairs_drf.cu writing each block's mean back from every
// thread: the threads of a block store different values to one pair.
#include <cuda_fp16.h>

__global__ void center(__half2 *vals, __half2 *mean, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 v = vals[i];
    __half2 m = -mean[blockIdx.x];
    v -= -m;
    if (v != m)
      v /= m;
    mean[blockIdx.x] = v;
  }
}
