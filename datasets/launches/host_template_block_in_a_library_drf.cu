// expect: drf
// A header-only library: the host template that launches the kernel is
// never instantiated in the file, so the kernel is analysed with its
// template parameters open. The launch still says the block is `BLOCK`
// threads wide, the stride of the kernel's loop, whatever `BLOCK` is.
template <typename T, int BLOCK>
__global__ void scale_rows_lib(T *x, int cols, T factor) {
  T *row = x + blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    row[c] = row[c] * factor;
  }
}

template <typename T, int BLOCK>
void launch_scale_lib(T *x, int rows, int cols, T factor) {
  constexpr int threads = BLOCK;
  dim3 block(threads);
  scale_rows_lib<T, BLOCK><<<rows, block>>>(x, cols, factor);
}
