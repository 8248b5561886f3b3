// expect: drf
// Layer-norm style arithmetic on `__half2` pairs with the operators the
// toolkit's header defines beside `+ - * /`: unary minus, `-=`, `/=`
// and comparisons (the built-in header lacked them, and the file did not
// compile). Each thread updates its own pair.
#include <cuda_fp16.h>

__global__ void center(__half2 *vals, const __half2 *mean, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 v = vals[i];
    __half2 m = -mean[blockIdx.x];
    v -= -m;
    if (v != m)
      v /= m;
    vals[i] = v;
  }
}
