// expect: drf
// channel_planes_flat_index_racy.cu with the precondition drfscan suggests
// for it: the pixels of a plane fit the plane.
__global__ void upsample_nearest(int n, int batches, int channels, int in_h, int in_w,
                                 int out_h, int out_w, const float *in, float *out) {
  __requires(n <= out_h * out_w);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = i % out_w;
    int y = i / out_w;
    int sx = x * in_w / out_w;
    int sy = y * in_h / out_h;
    for (int b = 0; b < batches; b++) {
      for (int c = 0; c < channels; c++) {
        float v = in[b * channels * in_h * in_w + c * in_h * in_w + sy * in_w + sx];
        out[b * channels * out_h * out_w + c * out_h * out_w + i] = v;
      }
    }
  }
}
