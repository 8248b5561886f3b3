// expect: drf
// Nearest-pixel resize with a border colour: each output pixel reads
// either its source pixel or a small array of the thread's own holding
// the border colour, through one pointer chosen by a bounds test. The
// thread's own array and the image are different kinds of memory, and
// the pointer may be either.

__global__ void resize_with_border(const unsigned char *src, int src_w,
                                   int src_h, int src_pitch, float *dst,
                                   int dst_w, int dst_h, float scale,
                                   unsigned char border) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= dst_w * dst_h)
    return;
  int x = p % dst_w;
  int y = p / dst_w;
  int sx = (int)(x * scale);
  int sy = (int)(y * scale);
  unsigned char fill[3] = {border, border, border};
  const unsigned char *pixel = fill;
  if (sx >= 0 && sx < src_w && sy >= 0 && sy < src_h)
    pixel = src + sy * src_pitch + sx * 3;
  int plane = dst_w * dst_h;
  dst[p] = pixel[0] / 255.0f;
  dst[p + plane] = pixel[1] / 255.0f;
  dst[p + 2 * plane] = pixel[2] / 255.0f;
}

void resize(const unsigned char *src, int src_w, int src_h, float *dst,
            int dst_w, int dst_h) {
  int n = dst_w * dst_h;
  resize_with_border<<<(n + 255) / 256, 256>>>(src, src_w, src_h, src_w * 3,
                                               dst, dst_w, dst_h,
                                               (float)src_w / dst_w, 114);
}
