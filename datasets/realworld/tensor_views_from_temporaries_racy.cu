// expect: racy
// tensor_views_from_temporaries_drf.cu with every block writing row 0
// through the temporary view: blocks of different `blockIdx.y` write the
// same elements, with values read from different rows.
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
  if (x < m.cols() && y < m.rows()) m[0][x] = 2.0f * in[y * cols + x];
}
