/* drfscan built-in stub of libcu++'s standard-library headers
   (`cuda/std/functional`, `cuda/std/limits`, `cuda/std/type_traits`,
   `cuda/std/utility`, `cuda/std/array`, `cuda/std/tuple`) and of
   `cuda/functional` and `cuda/cmath`: `cuda::std` is the host's standard
   library, whose constexpr functions clang lets device code call, and
   `cuda::minimum`, `cuda::maximum` and `cuda::ceil_div` are written out. */
#ifndef __DRFSCAN_CUDA_STD_H
#define __DRFSCAN_CUDA_STD_H
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
namespace cuda {
namespace std {
using namespace ::std;
}
template <class T = void> struct minimum {
  __host__ __device__ constexpr T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <> struct minimum<void> {
  template <class T, class U>
  __host__ __device__ constexpr auto operator()(const T &a, const U &b) const -> decltype(b < a ? b : a) {
    return b < a ? b : a;
  }
};
template <class T = void> struct maximum {
  __host__ __device__ constexpr T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <> struct maximum<void> {
  template <class T, class U>
  __host__ __device__ constexpr auto operator()(const T &a, const U &b) const -> decltype(a < b ? b : a) {
    return a < b ? b : a;
  }
};
template <class T, class U> __host__ __device__ constexpr T ceil_div(T a, U b) {
  return static_cast<T>((a + b - 1) / b);
}
} // namespace cuda
#endif
