// expect: racy
// options: --block-dim 256 --grid-dim 32
// Mutant of grid_stride_drf.cu striding by blockDim.x instead of the grid
// size: element 256 is handled by block 1 (first iteration) and by block 0
// (second iteration).

__global__ void scale_block_stride(float *data, float factor, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    data[i] = data[i] * factor;
}
