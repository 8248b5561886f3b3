// expect: racy
// The same dispatch, but the host template launches twice as many threads
// as the kernel strides by: thread `t + BLOCK` scales the element thread
// `t` reaches on its second step.
template <typename T, int BLOCK>
__global__ void scale_rows_wide(T *x, int cols, T factor) {
  T *row = x + blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    row[c] = row[c] * factor;
  }
}

template <typename T, int BLOCK>
void launch_scale_wide(T *x, int rows, int cols, T factor) {
  scale_rows_wide<T, BLOCK><<<rows, 2 * BLOCK>>>(x, cols, factor);
}

template <typename T>
struct DispatchScaleWide {
  void operator()(T *x, int rows, int cols, T factor) {
    if (cols >= 1024) {
      launch_scale_wide<T, 256>(x, rows, cols, factor);
    } else {
      launch_scale_wide<T, 128>(x, rows, cols, factor);
    }
  }
};

int main() {
  float *x;
  cudaMalloc(&x, 512 * 2048 * sizeof(float));
  DispatchScaleWide<float>()(x, 512, 2048, 0.5f);
  return 0;
}
