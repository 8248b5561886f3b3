// expect: drf
// A pointwise product of two spectra between cuFFT calls, with cuFFT's
// complex type: each thread scales its own element.
#include <cufft.h>

__global__ void multiply_spectra(cufftComplex *a, const cufftComplex *b, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cufftComplex x = a[i], y = b[i];
    a[i].x = (x.x * y.x - x.y * y.y) * scale;
    a[i].y = (x.x * y.y + x.y * y.x) * scale;
  }
}
