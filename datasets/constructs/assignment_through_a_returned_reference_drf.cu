// expect: drf
// Stores written through a function that returns a reference to the cell
// (`slot(bins, b) = v`, as accessors and `operator[]` of containers do):
// the assignment writes the cell the function's `return` names. Each
// thread owns its own bin.
__device__ float &slot(float *bins, int b) { return bins[b]; }

__global__ void spread(float *bins, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    slot(bins, i) = 2.0f * in[i];
    slot(bins, i) += 1.0f;
  }
}
