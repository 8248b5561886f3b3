// expect: racy
// accessor_method_of_a_base_template_drf.cu where each thread also writes
// its right neighbour's element, which that neighbour writes too, with
// another value.
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
  if (i + 1 < n) {
    out.data()[i] = in.data()[i] * by;
    out.data()[i + 1] = by;
  }
}

void run(Accessor32<float> in, Accessor32<float> out, int n) {
  scale<float><<<(n + 255) / 256, 256>>>(in, out, n, 2.0f);
}
