// expect: drf
// options: --block-dim 256 --grid-dim 16
// A __shared__ scalar written by one thread and read by all after a barrier.

__global__ void scale_by_block_factor(float *data, const float *factors) {
  __shared__ float scale;
  int g = blockIdx.x * blockDim.x + threadIdx.x;

  if (threadIdx.x == 0)
    scale = factors[blockIdx.x];
  __syncthreads();

  data[g] = data[g] * scale;
}
