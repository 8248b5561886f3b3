// expect: drf
// A vectorized scale: each thread loads four floats into a private array
// through a pointer to the whole array (`reinterpret_cast<V *>(&src)`,
// as PyTorch's vectorized kernels write), scales them, and stores them
// back four at a time.
template <typename T, int N>
struct alignas(sizeof(T) * N) aligned_vector {
  T val[N];
};

__global__ void scale4(const float *a, float *b, float s, int n) {
  using V = aligned_vector<float, 4>;
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 4 > n)
    return;
  float src[4];
  V *value = reinterpret_cast<V *>(&src);
  *value = *reinterpret_cast<const V *>(&a[i]);
  float r[4];
  for (int j = 0; j < 4; j++)
    r[j] = src[j] * s;
  *reinterpret_cast<V *>(&b[i]) = *reinterpret_cast<V *>(&r[0]);
}
