// expect: racy
// The same library launcher with one thread more than the stride: thread
// `BLOCK` scales the element thread 0 reaches on its second step.
template <typename T, int BLOCK>
__global__ void scale_rows_lib_wide(T *x, int cols, T factor) {
  T *row = x + blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    row[c] = row[c] * factor;
  }
}

template <typename T, int BLOCK>
void launch_scale_lib_wide(T *x, int rows, int cols, T factor) {
  constexpr int threads = BLOCK + 1;
  dim3 block(threads);
  scale_rows_lib_wide<T, BLOCK><<<rows, block>>>(x, cols, factor);
}
