// expect: drf
// options: --block-dim 256 --grid-dim 32
// Grid-stride loop: thread g of the grid handles elements g, g + G, g + 2G...
// where G is the number of threads in the grid.

__global__ void scale_grid_stride(float *data, float factor, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    data[i] = data[i] * factor;
}
