// expect: drf
// Halving until no cell changes, as a `do`-`while`: every thread copies the
// shared flag after a barrier, so the test at the end of each trip is the
// block's and all threads leave together.
__global__ void halve_until_still(float *x) {
  __shared__ int changed_s;
  int changed;
  do {
    if (threadIdx.x == 0) changed_s = 0;
    __syncthreads();
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    if (v > 1.0f) {
      x[blockIdx.x * blockDim.x + threadIdx.x] = 0.5f * v;
      changed_s = 1;
    }
    __syncthreads();
    changed = changed_s;
    __syncthreads();
  } while (changed);
}
