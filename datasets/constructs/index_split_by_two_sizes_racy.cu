// expect: racy
// As `index_split_by_two_sizes_drf.cu`, but each channel takes one plane
// fewer than it fills (`kh * kw - 1`): its last plane is the next channel's
// first.
__global__ void unfold(int n, const float *in, int rows, int cols, int kh, int kw, float *out) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    int row_index = index / cols;
    int row = row_index % rows;
    int col = index % cols;
    int channel = row_index / rows;
    float *p = out + ((channel * (kh * kw - 1)) * rows + row) * cols + col;
    for (int i = 0; i < kh; ++i) {
      for (int j = 0; j < kw; ++j) {
        *p = in[index];
        p += rows * cols;
      }
    }
  }
}
