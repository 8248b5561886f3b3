/* drfscan built-in stub of the warp matrix header: `nvcuda::wmma`'s
   fragments and the warp-wide loads, stores and products, declared only.
   drfscan knows `load_matrix_sync` and `store_matrix_sync` by name: each
   lane of the warp accesses its share of the tile. */
#ifndef __DRFSCAN_MMA_H
#define __DRFSCAN_MMA_H
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
struct u4;
struct s4;
struct b1;
}
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
}
}
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int m, int n, int k> struct __drfscan_tile;
template <int m, int n, int k> struct __drfscan_tile<matrix_a, m, n, k> { enum { cells = m * k }; };
template <int m, int n, int k> struct __drfscan_tile<matrix_b, m, n, k> { enum { cells = k * n }; };
template <int m, int n, int k> struct __drfscan_tile<accumulator, m, n, k> { enum { cells = m * n }; };
template <class T> struct __drfscan_storage { typedef T type; };
template <> struct __drfscan_storage<precision::tf32> { typedef float type; };
template <class Use, int m, int n, int k, class T, class Layout = void>
struct fragment {
  typedef typename __drfscan_storage<T>::type element_type;
  enum { num_elements = __drfscan_tile<Use, m, n, k>::cells / 32 };
  element_type x[num_elements];
};
template <class Frag, class P>
__device__ void load_matrix_sync(Frag &a, const P *p, unsigned ldm);
template <class Frag, class P>
__device__ void load_matrix_sync(Frag &a, const P *p, unsigned ldm, layout_t layout);
template <class Frag, class P>
__device__ void store_matrix_sync(P *p, const Frag &a, unsigned ldm, layout_t layout);
template <class Frag, class V>
__device__ void fill_fragment(Frag &a, const V &v);
template <class D, class A, class B, class C>
__device__ void mma_sync(D &d, const A &a, const B &b, const C &c, bool satf = false);
template <class D, class A, class B, class C>
__device__ void bmma_sync(D &d, const A &a, const B &b, const C &c);
__device__ float __float_to_tf32(float);
}
}
#endif
