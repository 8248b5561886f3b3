// expect: racy
// The mutant of `published_block_base_drf.cu`: the published base advances
// by half a block, so neighbouring blocks write the same cells.

__global__ void scale_tiles(float *out, const float *in, float k) {
  __shared__ unsigned int base;
  if (threadIdx.x == 0) base = blockIdx.x * (blockDim.x / 2);
  __syncthreads();
  unsigned int i = base + threadIdx.x;
  out[i] = k * in[i] + threadIdx.x;
}
