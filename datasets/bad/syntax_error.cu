// expect: error
// A kernel with syntax errors: a missing semicolon, an unbalanced
// parenthesis and a missing closing brace.

__global__ void broken(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n {
    a[i] = 2.0f * a[i];
  }
