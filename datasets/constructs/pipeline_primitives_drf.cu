// expect: drf
// options: --block-dim 256
// The runtime's pipeline primitives: each thread copies four bytes of a
// tile into shared memory asynchronously, waits for its own copy, and a
// barrier hands the tile to the block, which reads it reversed.
#include <cuda_pipeline.h>

__global__ void reverse_tile(const float *in, float *out) {
  __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}
