// expect: drf
// template_sum_with_operators_in_scope_racy.cu with the partial sums
// combined by an atomic add on a `T *`, which clang also leaves unresolved
// in the template: an atomic, so no race.

struct vec2 { float x, y; };
template <typename A> __device__ vec2 operator+(vec2 a, A b) { return a; }
template <typename A> __device__ vec2 &operator+=(vec2 &a, A b) { return a; }
template <typename A> __device__ vec2 operator*(A a) { return vec2(); }

template <typename T>
__global__ void block_sums(const T *x, T *sums, int n) {
  T sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += *(x + i);
  atomicAdd(&sums[blockIdx.x], sum);
}

template __global__ void block_sums<float>(const float *, float *, int);
