// expect: drf
// options: --block-dim 16,8 --grid-dim 4,8 --param width=64
// Two-dimensional thread and block ids: each thread of a 16x8 block fills
// one pixel (x, y) of a width x 64 image.

__global__ void fill_image(float *img, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width)
    img[y * width + x] = (float)(x + y);
}
