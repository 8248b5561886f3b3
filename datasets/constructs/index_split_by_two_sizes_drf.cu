// expect: drf
// A grid-stride loop over channels × rows × columns (`im2col`'s
// decomposition): each place is split by the column count, then by the row
// count, and each channel is unrolled into `taps` output planes by a pointer
// stepped in nested counted loops.
__global__ void unfold(int n, const float *in, int rows, int cols, int kh, int kw, float *out) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    int row_index = index / cols;
    int row = row_index % rows;
    int col = index % cols;
    int channel = row_index / rows;
    float *p = out + ((channel * kh * kw) * rows + row) * cols + col;
    for (int i = 0; i < kh; ++i) {
      for (int j = 0; j < kw; ++j) {
        *p = in[index];
        p += rows * cols;
      }
    }
  }
}
