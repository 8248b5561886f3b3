// expect: racy
// pointer_assigned_in_branch_drf.cu with the chroma plane starting one row
// after the luma row instead of after all luma rows: it overlaps the next
// thread's luma row.
__global__ void split_planes_overlapping(float *planes, int width, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float *luma;
  float *chroma;
  if (row < rows) {
    luma = planes + row * width;
    chroma = planes + (row + 1) * width;
  }
  if (row < rows)
    for (int x = threadIdx.y; x < width; x += blockDim.y) {
      luma[x] = 0.0f;
      chroma[x] = 1.0f;
    }
}
