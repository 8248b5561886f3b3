// expect: drf
// A kernel declared `__global__ __device__`, as old SDK-era code wrote
// them: nvcc took it for a kernel, clang refuses the two attributes
// together. drfscan reads it as a kernel. Each thread shades its pixel.
__global__ __device__ void shade(unsigned int *image, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    image[y * width + x] = (x ^ y) & 0xff;
}

void draw(unsigned int *image, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  shade<<<grid, block>>>(image, width, height);
}
