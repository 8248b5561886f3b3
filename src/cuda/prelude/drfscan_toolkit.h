/* Included before every file parsed with a real CUDA toolkit, after clang's
   CUDA wrapper headers. In device-only mode clang checks the `<<<...>>>`
   launches of host code against the pre-9.2 launch API, which CUDA's
   headers no longer declare; drfscan reads those launches, so it declares
   it. GPUVerify's annotations follow. */
#ifndef __DRFSCAN_TOOLKIT_H
#define __DRFSCAN_TOOLKIT_H
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                 cudaStream_t stream = 0);
/* The cache-hinted loads and stores of `sm_32_intrinsics.h`, which clang's
   wrapper headers leave out (they give `__ldg` only). */
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldca(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T, class U> __device__ void __stcg(T *, U);
template <class T, class U> __device__ void __stcs(T *, U);
template <class T, class U> __device__ void __stwb(T *, U);
template <class T, class U> __device__ void __stwt(T *, U);
#include "drfscan_annotations.h"
#endif
