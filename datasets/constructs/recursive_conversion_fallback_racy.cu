// expect: racy
// The conversions of recursive_conversion_fallback_drf.cu, but each
// thread stores its right neighbour's element, converted, in its own
// place: its write meets the read of the thread to its left.
template <typename TO, typename FROM> __device__ __forceinline__ TO to(FROM val) {
  return to(val);
}
template <> __device__ __forceinline__ float to(float val) { return val; }
template <> __device__ __forceinline__ double to(float val) { return (double)val; }
template <> __device__ __forceinline__ float to(double val) { return (float)val; }

__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

template <typename T> __global__ void scale(T *data, int n, float factor, int *period) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    data[i] = to<T>(to<float>(data[i + 1]) * factor);
  if (i == 0)
    period[0] = gcd(n, 64);
}

template __global__ void scale<float>(float *, int, float, int *);
