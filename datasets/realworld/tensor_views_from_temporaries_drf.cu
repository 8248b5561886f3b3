// expect: drf
// Tensor views in the style of deep-learning extensions: a packed
// accessor passed by value hands out row views as temporaries, built
// through a base class's constructor, and the row's `operator[]` returns a
// reference to the element. Rows of a row-major matrix laid out by the
// kernel itself (`width` elements apart): each thread writes its own
// element.
template <typename T> struct ViewBase {
  __device__ ViewBase(T *data, int stride) : data_(data), stride_(stride) {}
protected:
  T *data_;
  int stride_;
};

template <typename T> struct RowView : public ViewBase<T> {
  __device__ RowView(T *data, int stride) : ViewBase<T>(data, stride) {}
  __device__ T &operator[](int x) { return this->data_[x * this->stride_]; }
};

template <typename T> struct Matrix {
  T *data_;
  int rows_, cols_;
  __device__ RowView<T> operator[](int y) { return RowView<T>(data_ + y * cols_, 1); }
  __device__ int rows() const { return rows_; }
  __device__ int cols() const { return cols_; }
};

template <typename T> __device__ Matrix<T> matrix(T *p, int rows, int cols) {
  return Matrix<T>{p, rows, cols};
}

__global__ void scale_rows(float *out, const float *in, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  Matrix<float> m = matrix(out, rows, cols);
  if (x < m.cols() && y < m.rows()) m[y][x] = 2.0f * in[y * cols + x];
}
