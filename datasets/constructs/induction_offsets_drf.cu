// expect: drf
// Offsets and pointers a loop steps by a fixed amount each iteration
// (`offset += blockDim.x`, `row += blockDim.x`): at iteration `r` they are
// their start plus `r` steps, so each thread's cells are its own.

__global__ void scale_rows(float *dst, const float *src, int rows) {
  int offset = blockIdx.x * rows * blockDim.x;
  for (int r = 0; r < rows; r++) {
    dst[offset + threadIdx.x] = src[offset + threadIdx.x] * 2.0f;
    offset += blockDim.x;
  }
}

__global__ void shift_rows(float *dst, int rows) {
  float *row = dst + blockIdx.x * rows * blockDim.x;
  for (int r = 0; r < rows; ++r) {
    row[threadIdx.x] += 1.0f;
    row += blockDim.x;
  }
}
