// expect: drf
// An array of complex numbers (`float2`) scaled one float per thread
// through a `float *` view: threads 2k and 2k+1 write the real and the
// imaginary part of the same `float2`, which are distinct floats.
__global__ void scale_parts(float2 *z, float a, int n) {
  float *parts = (float *)z;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 * n)
    parts[i] = a * parts[i];
}

void scale(float2 *z, float a, int n) {
  scale_parts<<<(2 * n + 255) / 256, 256>>>(z, a, n);
}
