// expect: racy
// options: --block-dim 256
// pipeline_primitives_drf.cu without the barrier: waiting for its own copy
// tells a thread nothing about the cell another thread copies.
#include <cuda_pipeline.h>

__global__ void reverse_tile(const float *in, float *out) {
  __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[i] = tile[255 - threadIdx.x];
}
