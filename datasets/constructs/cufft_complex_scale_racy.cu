// expect: racy
// As `cufft_complex_scale_drf.cu`, but the output is indexed by the
// thread's place in its block: threads of different blocks write one
// element.
#include <cufft.h>

__global__ void multiply_spectra(cufftComplex *a, const cufftComplex *b, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cufftComplex x = a[i], y = b[i];
    a[threadIdx.x].x = (x.x * y.x - x.y * y.y) * scale;
    a[threadIdx.x].y = (x.x * y.y + x.y * y.x) * scale;
  }
}
