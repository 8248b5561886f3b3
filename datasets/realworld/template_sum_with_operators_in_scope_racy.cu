// expect: racy
// A block sum in a kernel template, in a file that also defines arithmetic
// operator templates for a small vector type (as math helper headers and
// cub do). With those in scope, clang leaves `sum += x[i]` on a `T sum`
// as a call to an unresolved `operator+=`. Every thread stores its own
// partial sum into the block's cell: different values, a real race.

struct vec2 { float x, y; };
template <typename A> __device__ vec2 operator+(vec2 a, A b) { return a; }
template <typename A> __device__ vec2 &operator+=(vec2 &a, A b) { return a; }
template <typename A> __device__ vec2 operator*(A a) { return vec2(); }

template <typename T>
__global__ void block_sums(const T *x, T *sums, int n) {
  T sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += *(x + i);
  sums[blockIdx.x] = sum;
}

template __global__ void block_sums<float>(const float *, float *, int);
