// expect: drf
// cuRAND: each thread draws from a state of its own.
#include <curand_kernel.h>

__global__ void draw(curandState *states, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = curand_uniform(&states[i]);
}
