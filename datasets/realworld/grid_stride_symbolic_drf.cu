// expect: drf
// A grid-stride loop with every size symbolic, and a 2D index with its
// width from a parameter: nonlinear indexes the solver proves through
// mixed-radix and division lemmas.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void scale2d(float *m, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height)
    m[row * width + col] *= 2.0f;
}
