// expect: drf
// A 3-D sweep in the style of old SDK-era stencils: each thread walks its
// column plane by plane, stepping its index with `__mul24` only while its
// `active` flag holds, and stores the previous plane's value under the same
// flag. The index read inside `if (active)` chose on `active` where it was
// stepped; the planes of a launch that passes `ny * pitch` apart never meet.
#include <stdlib.h>

#define INDEX(i, j, ld) ((i) + __mul24((j), (ld)))
#define BX 32
#define BY 4

__global__ void sweep(int nx, int ny, int nz, int pitch, const float *in, float *out)
{
  int i = threadIdx.x + blockIdx.x * BX;
  int j = threadIdx.y + blockIdx.y * BY;
  int g = INDEX(i, j, pitch);
  int g0 = 0;
  int active = (i < nx) && (j < ny);
  for (int k = 0; k < nz; k++) {
    if (active) {
      g0 = g;
      g = INDEX(g, ny, pitch);
    }
    if (active)
      out[g0] = 0.5f * (in[g0] + (k + 1 < nz ? in[g] : 0.0f));
    __syncthreads();
  }
}

int main(int argc, char **argv)
{
  int nz = argc > 1 ? atoi(argv[1]) : 64;
  float *in, *out;
  dim3 grid(4, 16), block(BX, BY);
  sweep<<<grid, block>>>(128, 64, nz, 128, in, out);
  return 0;
}
