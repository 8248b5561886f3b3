// expect: drf
// Conversions written as one function template whose generic definition
// calls itself, with explicit specializations for the types the code
// converts between, as inference libraries write `conversion::to<T>`.
// In the kernel template the call's types are open, so the generic
// definition is what is seen; it touches no memory, so its recursion
// only leaves the value unknown. Each thread scales its own element.
template <typename TO, typename FROM> __device__ __forceinline__ TO to(FROM val) {
  return to(val);
}
template <> __device__ __forceinline__ float to(float val) { return val; }
template <> __device__ __forceinline__ double to(float val) { return (double)val; }
template <> __device__ __forceinline__ float to(double val) { return (float)val; }

__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

template <typename T> __global__ void scale(T *data, int n, float factor, int *period) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = to<T>(to<float>(data[i]) * factor);
  if (i == 0)
    period[0] = gcd(n, 64);
}

template __global__ void scale<float>(float *, int, float, int *);
