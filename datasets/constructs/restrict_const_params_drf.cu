// expect: drf
// options: --block-dim 256 --grid-dim 16
// __restrict__ and const-qualified pointer parameters, unsigned arithmetic.

__global__ void axpby(const float *__restrict__ x, const float *__restrict__ y,
                      float *__restrict__ z, const float a, const float b,
                      const unsigned int n) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = a * x[i] + b * y[i];
}
