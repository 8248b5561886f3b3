// expect: racy
// column_filter_pointer_walk_drf.cu with its bounds check one column
// wide (`x > w`): the thread of column `w` walks column 0 one row down,
// beside the thread that owns it.

__global__ void column_filter(const unsigned *in, unsigned *out, int w, int h, float a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > w)
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
