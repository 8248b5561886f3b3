// expect: racy
// face_flux_drf.cu without the barrier between the loads and the sums:
// a thread sums its neighbour's fields, which that thread may still be
// loading.
#include "mesh.h"

__global__ void face_flux(const float *q, float *flux, int elements) {
  __shared__ float s_q[p_Nfields * BSIZE];
  int n = threadIdx.x;
  int k = blockIdx.x;
  if (k < elements && n < BSIZE) {
    for (int f = 0; f < p_Nfields; ++f)
      s_q[f * BSIZE + n] = q[(k * p_Nfields + f) * BSIZE + n];
  }
  if (k < elements && n < BSIZE) {
    float sum = 0.0f;
    for (int f = 0; f < p_Nfields; ++f)
      sum += s_q[f * BSIZE + (n + 1) % BSIZE];
    flux[k * BSIZE + n] = sum;
  }
}

void run(const float *q, float *flux, int elements) {
  face_flux<<<elements, BSIZE>>>(q, flux, elements);
}
