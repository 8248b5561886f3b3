// expect: drf
// A softmax-style library: a kernel template strides over a row by its
// block size, a template parameter, and the host template that launches
// it passes that same parameter as the launch's block. The dispatch goes
// through a functor of a class template (`Dispatch<T>()(…)`), whose
// `operator()` picks the instantiations. Each element is scaled in place
// by exactly one thread when the block is `BLOCK` threads wide.
template <typename T, int BLOCK>
__global__ void scale_rows(T *x, int cols, T factor) {
  T *row = x + blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    row[c] = row[c] * factor;
  }
}

template <typename T, int BLOCK>
void launch_scale(T *x, int rows, int cols, T factor) {
  scale_rows<T, BLOCK><<<rows, BLOCK>>>(x, cols, factor);
}

template <typename T>
struct DispatchScale {
  void operator()(T *x, int rows, int cols, T factor) {
    if (cols >= 1024) {
      launch_scale<T, 256>(x, rows, cols, factor);
    } else {
      launch_scale<T, 128>(x, rows, cols, factor);
    }
  }
};

int main() {
  float *x;
  cudaMalloc(&x, 512 * 2048 * sizeof(float));
  DispatchScale<float>()(x, 512, 2048, 0.5f);
  return 0;
}
