// expect: racy
// An upsampling kernel over an NCHW tensor, as TensorRT plugins write it:
// one thread per pixel of an output plane, its flat index `i` below the
// pixel count `n`, and a loop over batches and channels that adds whole
// planes of `out_h * out_w` pixels. For `n > out_h * out_w` a pixel past
// one channel's plane is the first of the next channel's, which another
// loop iteration of another thread writes: a race only for such `n`,
// reported as possible with the precondition `n <= out_h * out_w`.
__global__ void upsample_nearest(int n, int batches, int channels, int in_h, int in_w,
                                 int out_h, int out_w, const float *in, float *out) {
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
