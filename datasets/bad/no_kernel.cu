// A translation unit with device code but no __global__ kernel: nothing to
// analyse, and no label because there is no kernel to give a verdict to.

__device__ float square(float x) { return x * x; }

__device__ void store_square(float *a, int i) { a[i] = square(a[i]); }
