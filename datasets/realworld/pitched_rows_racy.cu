// expect: racy
// pitched_rows_drf.cu without the requirement that rows do not overlap: with
// a pitch smaller than a row, two threads write one float. drfscan reports
// the race as possible and suggests `__requires(width * 4 <= pitch)`.
__global__ void scale_rows(float *devPtr, size_t pitch, int width, int height) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < height) {
    float *row = (float *)((char *)devPtr + r * pitch);
    for (int c = 0; c < width; c++)
      row[c] = row[c] * 2.0f;
  }
}
