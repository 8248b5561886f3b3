// expect: racy
// cuRAND: every thread advances the same XORWOW state.
#include <curand_kernel.h>

__global__ void draw(curandState *state, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = curand_uniform(state);
}
