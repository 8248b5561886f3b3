// expect: drf
// A kernel template whose parameters are accessors named through an alias
// template; their `data()` is a member function of the accessor's base
// class template. Each thread copies its own element.
template <typename T>
struct AccessorBase {
  T *data_;
  int size_;
  __host__ __device__ T *data() const { return data_; }
};

template <typename T, typename index_t>
struct Accessor : public AccessorBase<T> {
  __host__ __device__ index_t size() const { return this->size_; }
};

template <typename T>
using Accessor32 = Accessor<T, int>;

template <typename T>
__global__ void scale(const Accessor32<T> in, Accessor32<T> out, int n, T by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out.data()[i] = in.data()[i] * by;
  }
}

void run(Accessor32<float> in, Accessor32<float> out, int n) {
  scale<float><<<(n + 255) / 256, 256>>>(in, out, n, 2.0f);
}
