// expect: drf
// Output pointers declared first and assigned inside a condition that
// always holds (a register-allocation trick in video-encoding kernels),
// then written through in a strided loop: each thread owns its rows.
__global__ void split_planes(float *planes, int width, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float *luma;
  float *chroma;
  if (row < rows) {
    luma = planes + row * width;
    chroma = planes + (rows + row) * width;
  }
  if (row < rows)
    for (int x = threadIdx.y; x < width; x += blockDim.y) {
      luma[x] = 0.0f;
      chroma[x] = 1.0f;
    }
}
