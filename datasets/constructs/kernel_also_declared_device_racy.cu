// expect: racy
// kernel_also_declared_device_drf.cu with the qualifiers the other way
// round and a row index that forgets the image's width: rows overlap.
__device__ __global__ void shade(unsigned int *image, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    image[y + x] = (x ^ y) & 0xff;
}

void draw(unsigned int *image, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  shade<<<grid, block>>>(image, width, height);
}
