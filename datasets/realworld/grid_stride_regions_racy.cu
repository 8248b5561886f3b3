// expect: racy
// grid_stride_regions_drf.cu with the stride of one block instead of the
// grid: blocks overlap after their first step.
__global__ void clear_regions_block_stride(unsigned *buffer, unsigned low) {
  unsigned start = threadIdx.x + blockIdx.x * blockDim.x;
  for (unsigned i = start; i < low; i += blockDim.x)
    buffer[i] = start;
}
