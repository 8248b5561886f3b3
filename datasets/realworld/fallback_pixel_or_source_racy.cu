// expect: racy
// Nearest-pixel resize with a border colour, written back into the
// source: inside the image the pointer is the source pixel, and a thread
// stores through it while a neighbour (two output pixels scaled onto one
// source pixel) stores to the same pixel.

__global__ void resize_in_place(unsigned char *src, int src_w, int src_h,
                                int src_pitch, int dst_w, int dst_h,
                                float scale, unsigned char border) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= dst_w * dst_h)
    return;
  int x = p % dst_w;
  int y = p / dst_w;
  int sx = (int)(x * scale);
  int sy = (int)(y * scale);
  unsigned char fill[3] = {border, border, border};
  unsigned char *pixel = fill;
  if (sx >= 0 && sx < src_w && sy >= 0 && sy < src_h)
    pixel = src + sy * src_pitch + sx * 3;
  pixel[0] = 255 - pixel[0];
}

void resize(unsigned char *src, int src_w, int src_h, int dst_w, int dst_h) {
  int n = dst_w * dst_h;
  resize_in_place<<<(n + 255) / 256, 256>>>(src, src_w, src_h, src_w * 3,
                                            dst_w, dst_h, (float)src_w / dst_w,
                                            114);
}
