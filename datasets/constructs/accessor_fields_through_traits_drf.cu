// expect: drf
// A tensor accessor in the style of PyTorch's, passed by value to a kernel
// template: its pointer field is declared through a traits class
// (`typename PtrTraits<T>::PtrType data_`), a type the template leaves
// dependent, and read through `data()`, overloaded on constness. The
// instantiation `scale<float>` says the field is a `float *`.
template <typename T> struct RestrictPtrTraits {
  typedef T *__restrict__ PtrType;
};

template <typename T, template <typename U> class PtrTraits = RestrictPtrTraits>
class Accessor {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __host__ __device__ PtrType data() { return data_; }
  __host__ __device__ const PtrType data() const { return data_; }
  __host__ __device__ int size() const { return size_; }

 protected:
  PtrType data_;
  int size_;
};

template <typename scalar_t>
__global__ void scale(const Accessor<scalar_t> in, Accessor<scalar_t> out, scalar_t factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < out.size())
    out.data()[i] = in.data()[i] * factor;
}

void run(Accessor<float> in, Accessor<float> out, int n) {
  scale<float><<<(n + 255) / 256, 256>>>(in, out, 2.0f);
}
