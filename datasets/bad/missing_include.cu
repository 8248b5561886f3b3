// expect: error
// options: --block-dim 128
// Includes a project header that is not there.
#include "kernel_params_generated.cuh"

__global__ void uses_missing_header(float *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] = KERNEL_SCALE;
}
