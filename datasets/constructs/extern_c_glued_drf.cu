// expect: drf
// A kernel declared for loading by name from another language, with no
// space between the linkage string and `__global__` (one token in C++11,
// which nvcc accepts).
extern "C"__global__
void saxpy_by_name(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
