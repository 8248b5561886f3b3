// expect: drf
// A 2-D array laid out with a row pitch in bytes (cudaMallocPitch): each
// thread reaches its row through a `char *` offset. CUDA requires accesses to
// be aligned to their size, so the byte offset of a row is whole floats. The
// kernel needs rows not to overlap, which its `__requires` states.
__global__ void scale_rows(float *devPtr, size_t pitch, int width, int height) {
  __requires(width * 4 <= pitch);
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < height) {
    float *row = (float *)((char *)devPtr + r * pitch);
    for (int c = 0; c < width; c++)
      row[c] = row[c] * 2.0f;
  }
}
