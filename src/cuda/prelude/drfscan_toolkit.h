/* Included before every file parsed with a real CUDA toolkit, after clang's
   CUDA wrapper headers. In device-only mode clang checks the `<<<...>>>`
   launches of host code against the pre-9.2 launch API, which CUDA's
   headers no longer declare; drfscan reads those launches, so it declares
   it. The cache-hinted loads and stores clang's wrapper headers leave out,
   GPUVerify's annotations, the device runtime and the surface functions
   follow. */
#ifndef __DRFSCAN_TOOLKIT_H
#define __DRFSCAN_TOOLKIT_H
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                 cudaStream_t stream = 0);
/* CUDA's host_defines.h makes `__noinline__` a macro for
   `__attribute__((noinline))`, which breaks libstdc++'s
   `__attribute__((__noinline__))` (<memory>, <random>); clang reads
   `__noinline__` as a keyword in CUDA mode, in both places. */
#undef __noinline__
/* clang reads the `managed` attribute of CUDA's `__managed__` in HIP only:
   a unified-memory variable would be a host variable device code cannot
   name. It is a device variable the host may also use. */
#undef __managed__
#define __managed__ __attribute__((device)) __attribute__((managed))
/* nvcc defines its version and clang does not: the toolkit's runtime
   version stands for it, which code tests to choose intrinsics over
   inline PTX (`__cvta_generic_to_shared` since CUDA 11). */
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif
/* The floating limits (FLT_MAX, FLT_EPSILON) come with a library's headers
   (Thrust, CUB, TensorRT, ATen) in every real build; a kernel whose library
   is not installed here should still have them. */
#include <float.h>
#include "drfscan_cache_hints.h"
#include "drfscan_annotations.h"
#include "drfscan_device_runtime.h"
#include "drfscan_surfaces.h"
#endif
