/* The cache-hinted loads and stores of `sm_32_intrinsics.h` (clang's CUDA
   wrapper headers give `__ldg` only): a load reads `*p`, a store writes it. */
#ifndef __DRFSCAN_CACHE_HINTS_H
#define __DRFSCAN_CACHE_HINTS_H
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldca(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T, class U> __device__ void __stcg(T *, U);
template <class T, class U> __device__ void __stcs(T *, U);
template <class T, class U> __device__ void __stwb(T *, U);
template <class T, class U> __device__ void __stwt(T *, U);
#endif
