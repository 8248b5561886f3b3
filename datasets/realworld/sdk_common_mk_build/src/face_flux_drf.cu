// expect: drf
// Sizes come only from the Makefile beside the project (`-Dp_N=4 -DNDG3d
// -I./include`, set for the SDK's shared common.mk, which is not in the
// tree): without them `p_Nfields` and `BSIZE` are undeclared. Each thread
// of an element's block loads its face node's fields into shared memory;
// after the barrier it sums the fields of its node.
#include "mesh.h"

__global__ void face_flux(const float *q, float *flux, int elements) {
  __shared__ float s_q[p_Nfields * BSIZE];
  int n = threadIdx.x;
  int k = blockIdx.x;
  if (k < elements && n < BSIZE) {
    for (int f = 0; f < p_Nfields; ++f)
      s_q[f * BSIZE + n] = q[(k * p_Nfields + f) * BSIZE + n];
  }
  __syncthreads();
  if (k < elements && n < BSIZE) {
    float sum = 0.0f;
    for (int f = 0; f < p_Nfields; ++f)
      sum += s_q[f * BSIZE + n];
    flux[k * BSIZE + n] = sum;
  }
}

void run(const float *q, float *flux, int elements) {
  face_flux<<<elements, BSIZE>>>(q, flux, elements);
}
