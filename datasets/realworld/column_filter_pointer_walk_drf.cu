// expect: drf
// A recursive filter down each column of an image, as the SDK's recursive
// Gaussian runs it: each thread owns a column, walks its pointers down one
// row per iteration (`out += w`), steps back one row, and walks up again,
// averaging with what the first pass stored. After the first loop the
// pointer is `x + h * w` (or `x` when the image has no rows), one value
// per thread, not an unknown two threads may share.

__global__ void column_filter(const unsigned *in, unsigned *out, int w, int h, float a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w)
    return;
  in += x;
  out += x;
  float prev = in[0];
  for (int y = 0; y < h; y++) {
    float v = prev + a * (in[0] - prev);
    *out = (unsigned)v;
    prev = v;
    in += w;
    out += w;
  }
  in -= w;
  out -= w;
  prev = in[0];
  for (int y = h - 1; y > -1; y--) {
    float v = prev + a * (in[0] - prev);
    *out = (unsigned)((*out + v) * 0.5f);
    prev = v;
    in -= w;
    out -= w;
  }
}

void run(const unsigned *in, unsigned *out, int w, int h, float a) {
  column_filter<<<(w + 255) / 256, 256>>>(in, out, w, h, a);
}
