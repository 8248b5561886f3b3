/* drfscan's built-in CUDA device prelude: just enough of the CUDA device API
   for clang to parse kernels in device mode without a CUDA toolkit. It is
   included before every file (-include). Only declarations: drfscan reads
   kernels, it never compiles them. */
#ifndef __DRFSCAN_PRELUDE_H
#define __DRFSCAN_PRELUDE_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* A unified-memory variable is a device variable the host may also use
   (clang reads the `managed` attribute in HIP only). */
#define __managed__ __attribute__((device)) __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* `__noinline__` is a keyword of clang's CUDA mode: as a macro it would
   break libstdc++'s `__attribute__((__noinline__))`. */
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __NVCC__ 1
#define __CUDACC__ 1
#define CUDART_VERSION 12000
/* nvcc's own version, which code tests to pick intrinsics over inline
   PTX (`__cvta_generic_to_shared` since CUDA 11). */
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0

/* nvcc's headers bring the C limits (UINT_MAX, INT_MAX), the fixed-width
   integers and <math.h>'s constants with them. */
#include <limits.h>
#include <stdint.h>
/* The floating limits (FLT_MAX, FLT_EPSILON) come with a library's headers
   (Thrust, CUB, TensorRT, ATen) in every real build; a kernel whose library
   is not installed here should still have them. */
#include <float.h>
#ifndef INFINITY
#define INFINITY (__builtin_inff())
#endif
#ifndef NAN
#define NAN (__builtin_nanf(""))
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (__builtin_huge_valf())
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (__builtin_huge_val())
#endif

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned long ulong;
typedef int cudaError_t;
/* The enumeration's own name, as code spells it (`cudaError err`). */
typedef int cudaError;
typedef void *cudaStream_t;
#define cudaSuccess 0
#ifndef NULL
#define NULL 0
#endif

#define __DRFSCAN_VEC2(T, N) struct N##2 { T x, y; }; \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }
#define __DRFSCAN_VEC3(T, N) struct N##3 { T x, y, z; }; \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) { N##3 r; r.x = x; r.y = y; r.z = z; return r; }
#define __DRFSCAN_VEC4(T, N) struct N##4 { T x, y, z, w; }; \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) { N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
#define __DRFSCAN_VEC1(T, N) struct N##1 { T x; }; \
  __host__ __device__ inline N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }
#define __DRFSCAN_VECS(T, N) __DRFSCAN_VEC1(T, N) __DRFSCAN_VEC2(T, N) __DRFSCAN_VEC3(T, N) __DRFSCAN_VEC4(T, N)
__DRFSCAN_VECS(float, float)
__DRFSCAN_VECS(double, double)
__DRFSCAN_VECS(int, int)
__DRFSCAN_VECS(unsigned int, uint)
__DRFSCAN_VECS(char, char)
__DRFSCAN_VECS(unsigned char, uchar)
__DRFSCAN_VECS(short, short)
__DRFSCAN_VECS(unsigned short, ushort)
__DRFSCAN_VECS(long, long)
__DRFSCAN_VECS(unsigned long, ulong)
__DRFSCAN_VECS(long long, longlong)
__DRFSCAN_VECS(unsigned long long, ulonglong)
#undef __DRFSCAN_VEC1
#undef __DRFSCAN_VEC2
#undef __DRFSCAN_VEC3
#undef __DRFSCAN_VEC4
#undef __DRFSCAN_VECS

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1) : x(x), y(y), z(z) {}
  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ operator uint3() const { uint3 r; r.x = x; r.y = y; r.z = z; return r; }
};

/* Thread and block ids and launch dimensions, as plain structures so that
   `threadIdx.x` is an ordinary member access. */
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
constexpr int warpSize = 32;

/* Barriers, fences, warp primitives. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ unsigned int __ballot_sync(unsigned int, int);
__device__ unsigned int __ballot(int);
__device__ int __all_sync(unsigned int, int);
__device__ int __any_sync(unsigned int, int);
__device__ unsigned int __activemask(void);
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned int __brev(unsigned int);
__device__ int __mul24(int, int);
__device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ long long clock64(void);
__device__ long clock(void);

#define __DRFSCAN_SHFL(T) \
  __device__ T __shfl_sync(unsigned int, T, int, int = 32); \
  __device__ T __shfl_up_sync(unsigned int, T, unsigned int, int = 32); \
  __device__ T __shfl_down_sync(unsigned int, T, unsigned int, int = 32); \
  __device__ T __shfl_xor_sync(unsigned int, T, int, int = 32); \
  __device__ T __shfl(T, int, int = 32); \
  __device__ T __shfl_up(T, unsigned int, int = 32); \
  __device__ T __shfl_down(T, unsigned int, int = 32); \
  __device__ T __shfl_xor(T, int, int = 32);
__DRFSCAN_SHFL(int)
__DRFSCAN_SHFL(unsigned int)
__DRFSCAN_SHFL(long)
__DRFSCAN_SHFL(unsigned long)
__DRFSCAN_SHFL(long long)
__DRFSCAN_SHFL(unsigned long long)
__DRFSCAN_SHFL(float)
__DRFSCAN_SHFL(double)
#undef __DRFSCAN_SHFL

/* Cached loads. */
template <class T> __device__ T __ldg(const T *);
#include "drfscan_cache_hints.h"

/* Atomics. */
#define __DRFSCAN_ATOMIC2(NAME, T) __device__ T NAME(T *, T);
#define __DRFSCAN_ATOMIC_INT(NAME) \
  __DRFSCAN_ATOMIC2(NAME, int) __DRFSCAN_ATOMIC2(NAME, unsigned int) \
  __DRFSCAN_ATOMIC2(NAME, unsigned long long) __DRFSCAN_ATOMIC2(NAME, long long)
__DRFSCAN_ATOMIC_INT(atomicAdd)
__DRFSCAN_ATOMIC2(atomicAdd, float)
__DRFSCAN_ATOMIC2(atomicAdd, double)
__DRFSCAN_ATOMIC_INT(atomicSub)
__DRFSCAN_ATOMIC_INT(atomicExch)
__DRFSCAN_ATOMIC2(atomicExch, float)
__DRFSCAN_ATOMIC_INT(atomicMin)
__DRFSCAN_ATOMIC_INT(atomicMax)
__DRFSCAN_ATOMIC_INT(atomicAnd)
__DRFSCAN_ATOMIC_INT(atomicOr)
__DRFSCAN_ATOMIC_INT(atomicXor)
__DRFSCAN_ATOMIC2(atomicInc, unsigned int)
__DRFSCAN_ATOMIC2(atomicDec, unsigned int)
__device__ int atomicCAS(int *, int, int);
__device__ unsigned int atomicCAS(unsigned int *, unsigned int, unsigned int);
__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
#undef __DRFSCAN_ATOMIC2
#undef __DRFSCAN_ATOMIC_INT

/* Math. */
#define __DRFSCAN_MATH1(F) __device__ float F##f(float); __device__ double F(double);
#define __DRFSCAN_MATH2(F) __device__ float F##f(float, float); __device__ double F(double, double);
__DRFSCAN_MATH1(sqrt) __DRFSCAN_MATH1(rsqrt) __DRFSCAN_MATH1(cbrt) __DRFSCAN_MATH1(exp) __DRFSCAN_MATH1(exp2)
__DRFSCAN_MATH1(exp10) __DRFSCAN_MATH1(expm1) __DRFSCAN_MATH1(log) __DRFSCAN_MATH1(log2) __DRFSCAN_MATH1(log10)
__DRFSCAN_MATH1(log1p) __DRFSCAN_MATH1(sin) __DRFSCAN_MATH1(cos) __DRFSCAN_MATH1(tan) __DRFSCAN_MATH1(asin)
__DRFSCAN_MATH1(acos) __DRFSCAN_MATH1(atan) __DRFSCAN_MATH1(sinh) __DRFSCAN_MATH1(cosh) __DRFSCAN_MATH1(tanh)
__DRFSCAN_MATH1(fabs) __DRFSCAN_MATH1(floor) __DRFSCAN_MATH1(ceil) __DRFSCAN_MATH1(round) __DRFSCAN_MATH1(trunc)
__DRFSCAN_MATH1(rint) __DRFSCAN_MATH1(erf) __DRFSCAN_MATH1(erfc) __DRFSCAN_MATH1(lgamma) __DRFSCAN_MATH1(tgamma)
__DRFSCAN_MATH2(pow) __DRFSCAN_MATH2(fmin) __DRFSCAN_MATH2(fmax) __DRFSCAN_MATH2(fmod) __DRFSCAN_MATH2(atan2)
__DRFSCAN_MATH2(hypot) __DRFSCAN_MATH2(copysign) __DRFSCAN_MATH2(fdim) __DRFSCAN_MATH2(remainder)
#undef __DRFSCAN_MATH1
#undef __DRFSCAN_MATH2
__device__ float fmaf(float, float, float);
__device__ float nanf(const char *);
__device__ double nan(const char *);
__device__ double fma(double, double, double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
/* glibc's math.h constants (nvcc's host compiler defines them by default). */
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ float __saturatef(float);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned int);
__device__ unsigned int __float_as_uint(float);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ unsigned int __float2uint_rn(float);
__device__ float __int2float_rn(int);
__device__ float __fmul_rn(float, float);
__device__ float __fadd_rn(float, float);
/* CUDA's classification functions; <math.h> declares the host's. */
extern "C" __device__ int __isnanf(float);
extern "C" __device__ int __isinff(float);
extern "C" __device__ int __finitef(float);
extern "C" __device__ int __signbitf(float);
extern "C" __device__ int __isnan(double);
extern "C" __device__ int __isinf(double);
extern "C" __device__ int __finite(double);
extern "C" __device__ int __signbit(double);
/* Templates: <cmath>'s own (constexpr, so usable on both sides) win over
   them where code includes it, and clash with nothing. */
template <class T> __device__ bool isnan(T);
template <class T> __device__ bool isinf(T);
template <class T> __device__ bool isfinite(T);
template <class T> __device__ bool signbit(T);
__device__ inline int abs(int a) { return a < 0 ? -a : a; }
__device__ inline long long llabs(long long a) { return a < 0 ? -a : a; }
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long min(long a, long b) { return a < b ? a : b; }
__host__ __device__ inline long max(long a, long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__host__ __device__ float min(float, float);
__host__ __device__ float max(float, float);
__host__ __device__ double min(double, double);
__host__ __device__ double max(double, double);
__host__ __device__ unsigned int umin(unsigned int, unsigned int);
__host__ __device__ unsigned int umax(unsigned int, unsigned int);

/* Output, assertions, memory. nvcc's runtime header brings `assert` to
   every unit (its `common_functions.h` includes <assert.h>). */
#include <assert.h>
extern "C" __device__ int printf(const char *, ...);
extern "C" __host__ __device__ void __assertfail(const char *, const char *, unsigned int, const char *, size_t);
/* Device-side only: a `__host__ __device__` declaration would clash with
   the system's `<string.h>` and `<stdlib.h>`, which host code includes. */
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
extern "C" __device__ void *memcpy(void *, const void *, size_t);
extern "C" __device__ void *memset(void *, int, size_t);

/* Host side: launches (`k<<<g, b>>>(…)`) and the common runtime calls, so
   that host code parses and its instantiations of kernel templates are
   seen. */
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, void *stream = 0);
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
typedef void *cudaEvent_t;
cudaError_t cudaMalloc(void **, size_t);
template <class T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
cudaError_t cudaMallocManaged(void **, size_t, unsigned int = 1);
template <class T> cudaError_t cudaMallocManaged(T **p, size_t n, unsigned int f = 1) { return cudaMallocManaged((void **)p, n, f); }
cudaError_t cudaFree(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyHostToDevice);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaSetDevice(int);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaStreamSynchronize(cudaStream_t);

/* Attributes and types of the toolkit headers. */
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __device_builtin__
#define __cudart_builtin__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
typedef long clock_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero, cudaBoundaryModeClamp, cudaBoundaryModeTrap };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
/* Texture reads go through the texture cache: they read memory no kernel
   writes while it runs, so they are values, not accesses. Surface reads
   and writes are accesses of the surface's memory (see the front end). */
#include "drfscan_surfaces.h"
/* The attribute lets device code use texture references declared at file
   scope without `__device__`, as nvcc does. */
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture { int normalized; int filterMode; int addressMode[3]; };
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <class T> __device__ T tex1D(cudaTextureObject_t, float);
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <class T> __device__ T tex3D(cudaTextureObject_t, float, float, float);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t, float, int);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t, float, float, int);
template <class T> __device__ T texCubemap(cudaTextureObject_t, float, float, float);
template <class T> __device__ T tex2DLod(cudaTextureObject_t, float, float, float);
template <class T> __device__ T tex2DGather(cudaTextureObject_t, float, float, int = 0);
template <class T, int d, enum cudaTextureReadMode m> __device__ T tex1Dfetch(texture<T, d, m>, int);
template <class T, int d, enum cudaTextureReadMode m> __device__ T tex1D(texture<T, d, m>, float);
template <class T, int d, enum cudaTextureReadMode m> __device__ T tex2D(texture<T, d, m>, float, float);
template <class T, int d, enum cudaTextureReadMode m> __device__ T tex3D(texture<T, d, m>, float, float, float);
template <int d> __device__ float tex1Dfetch(texture<unsigned char, d, cudaReadModeNormalizedFloat>, int);
template <int d> __device__ float tex2D(texture<unsigned char, d, cudaReadModeNormalizedFloat>, float, float);
struct cudaChannelFormatDesc { int x, y, z, w; int f; };
template <class T> cudaChannelFormatDesc cudaCreateChannelDesc(void);
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
struct cudaResourceDesc { int resType; union { struct { cudaArray_t array; } array; struct { void *devPtr; cudaChannelFormatDesc desc; size_t sizeInBytes; } linear; struct { void *devPtr; cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D; } res; };
struct cudaTextureDesc { int addressMode[3]; int filterMode; int readMode; int sRGB; float borderColor[4]; int normalizedCoords; };

/* More device intrinsics. */
__device__ float __exp10f(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __frcp_rn(float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fsub_rn(float, float);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double);
__device__ float __double2float_rn(double);
__device__ int __double2int_rn(double);
__device__ int __double2int_rd(double);
__device__ unsigned int __double2uint_rn(double);
__device__ unsigned int __double2uint_rd(double);
__device__ unsigned int __double2uint_ru(double);
__device__ unsigned int __double2uint_rz(double);
__device__ int __double2int_ru(double);
__device__ int __double2int_rz(double);
__device__ long long __double2ll_rn(double);
__device__ long long __double2ll_rz(double);
__device__ unsigned long long __double2ull_rn(double);
__device__ unsigned long long __double2ull_rz(double);
__device__ double __ll2double_rn(long long);
__device__ double __ull2double_rn(unsigned long long);
__device__ double __uint2double_rn(unsigned int);
__device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double);
__device__ double __ddiv_rn(double, double);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __dsub_rn(double, double);
__device__ float __frcp_rz(float);
__device__ float __frcp_rd(float);
__device__ float __frcp_ru(float);
__device__ float __fsqrt_rd(float);
__device__ float __fsqrt_ru(float);
__device__ float __fsqrt_rz(float);
__device__ float __fdiv_rz(float, float);
__device__ unsigned int __vabs2(unsigned int);
__device__ unsigned int __vabs4(unsigned int);
__device__ unsigned int __vadd2(unsigned int, unsigned int);
__device__ unsigned int __vadd4(unsigned int, unsigned int);
__device__ unsigned int __vsub2(unsigned int, unsigned int);
__device__ unsigned int __vsub4(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq2(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq4(unsigned int, unsigned int);
__device__ unsigned int __vmaxu4(unsigned int, unsigned int);
__device__ unsigned int __vminu4(unsigned int, unsigned int);
__device__ unsigned int __vsad4(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffs2(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffs4(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffu2(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffu4(unsigned int, unsigned int);
__device__ double __int2double_rn(int);
__device__ float __uint2float_rn(unsigned int);
__device__ float __ull2float_rn(unsigned long long);
__device__ float __ll2float_rn(long long);
__device__ int __float2int_rd(float);
__device__ int __float2int_ru(float);
__device__ unsigned int __float2uint_rz(float);
__device__ long long __float2ll_rn(float);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);
__device__ double __hiloint2double(int, int);
__device__ int __clzll(long long);
__device__ int __ffsll(long long);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
/* The rest of the integer, SIMD-in-a-word, conversion and rounding
   intrinsics of the CUDA math API, each as the toolkit declares it. */
__device__ unsigned int __vabsss2(unsigned int);
__device__ unsigned int __vneg2(unsigned int);
__device__ unsigned int __vnegss2(unsigned int);
__device__ unsigned int __vaddss2(unsigned int, unsigned int);
__device__ unsigned int __vaddus2(unsigned int, unsigned int);
__device__ unsigned int __vavgs2(unsigned int, unsigned int);
__device__ unsigned int __vavgu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpges2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu2(unsigned int, unsigned int);
__device__ unsigned int __vcmples2(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu2(unsigned int, unsigned int);
__device__ unsigned int __vcmplts2(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpne2(unsigned int, unsigned int);
__device__ unsigned int __vhaddu2(unsigned int, unsigned int);
__device__ unsigned int __vmaxs2(unsigned int, unsigned int);
__device__ unsigned int __vmaxu2(unsigned int, unsigned int);
__device__ unsigned int __vmins2(unsigned int, unsigned int);
__device__ unsigned int __vminu2(unsigned int, unsigned int);
__device__ unsigned int __vsads2(unsigned int, unsigned int);
__device__ unsigned int __vsadu2(unsigned int, unsigned int);
__device__ unsigned int __vseteq2(unsigned int, unsigned int);
__device__ unsigned int __vsetges2(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu2(unsigned int, unsigned int);
__device__ unsigned int __vsetgts2(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu2(unsigned int, unsigned int);
__device__ unsigned int __vsetles2(unsigned int, unsigned int);
__device__ unsigned int __vsetleu2(unsigned int, unsigned int);
__device__ unsigned int __vsetlts2(unsigned int, unsigned int);
__device__ unsigned int __vsetltu2(unsigned int, unsigned int);
__device__ unsigned int __vsetne2(unsigned int, unsigned int);
__device__ unsigned int __vsubss2(unsigned int, unsigned int);
__device__ unsigned int __vsubus2(unsigned int, unsigned int);
__device__ unsigned int __vabsss4(unsigned int);
__device__ unsigned int __vneg4(unsigned int);
__device__ unsigned int __vnegss4(unsigned int);
__device__ unsigned int __vaddss4(unsigned int, unsigned int);
__device__ unsigned int __vaddus4(unsigned int, unsigned int);
__device__ unsigned int __vavgs4(unsigned int, unsigned int);
__device__ unsigned int __vavgu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpges4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu4(unsigned int, unsigned int);
__device__ unsigned int __vcmples4(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu4(unsigned int, unsigned int);
__device__ unsigned int __vcmplts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpne4(unsigned int, unsigned int);
__device__ unsigned int __vhaddu4(unsigned int, unsigned int);
__device__ unsigned int __vmaxs4(unsigned int, unsigned int);
__device__ unsigned int __vmins4(unsigned int, unsigned int);
__device__ unsigned int __vsads4(unsigned int, unsigned int);
__device__ unsigned int __vsadu4(unsigned int, unsigned int);
__device__ unsigned int __vseteq4(unsigned int, unsigned int);
__device__ unsigned int __vsetges4(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu4(unsigned int, unsigned int);
__device__ unsigned int __vsetgts4(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu4(unsigned int, unsigned int);
__device__ unsigned int __vsetles4(unsigned int, unsigned int);
__device__ unsigned int __vsetleu4(unsigned int, unsigned int);
__device__ unsigned int __vsetlts4(unsigned int, unsigned int);
__device__ unsigned int __vsetltu4(unsigned int, unsigned int);
__device__ unsigned int __vsetne4(unsigned int, unsigned int);
__device__ unsigned int __vsubss4(unsigned int, unsigned int);
__device__ unsigned int __vsubus4(unsigned int, unsigned int);
__device__ float __double2float_rd(double);
__device__ long long __double2ll_rd(double);
__device__ unsigned long long __double2ull_rd(double);
__device__ unsigned int __float2uint_rd(float);
__device__ long long __float2ll_rd(float);
__device__ unsigned long long __float2ull_rd(float);
__device__ float __int2float_rd(int);
__device__ float __uint2float_rd(unsigned int);
__device__ float __ll2float_rd(long long);
__device__ float __ull2float_rd(unsigned long long);
__device__ double __ll2double_rd(long long);
__device__ double __ull2double_rd(unsigned long long);
__device__ float __fadd_rd(float, float);
__device__ double __dadd_rd(double, double);
__device__ float __fsub_rd(float, float);
__device__ double __dsub_rd(double, double);
__device__ float __fmul_rd(float, float);
__device__ double __dmul_rd(double, double);
__device__ float __fdiv_rd(float, float);
__device__ double __ddiv_rd(double, double);
__device__ float __fmaf_rd(float, float, float);
__device__ double __fma_rd(double, double, double);
__device__ double __drcp_rd(double);
__device__ double __dsqrt_rd(double);
__device__ unsigned long long __float2ull_rn(float);
__device__ float __double2float_ru(double);
__device__ long long __double2ll_ru(double);
__device__ unsigned long long __double2ull_ru(double);
__device__ unsigned int __float2uint_ru(float);
__device__ long long __float2ll_ru(float);
__device__ unsigned long long __float2ull_ru(float);
__device__ float __int2float_ru(int);
__device__ float __uint2float_ru(unsigned int);
__device__ float __ll2float_ru(long long);
__device__ float __ull2float_ru(unsigned long long);
__device__ double __ll2double_ru(long long);
__device__ double __ull2double_ru(unsigned long long);
__device__ float __fadd_ru(float, float);
__device__ double __dadd_ru(double, double);
__device__ float __fsub_ru(float, float);
__device__ double __dsub_ru(double, double);
__device__ float __fmul_ru(float, float);
__device__ double __dmul_ru(double, double);
__device__ float __fdiv_ru(float, float);
__device__ double __ddiv_ru(double, double);
__device__ float __fmaf_ru(float, float, float);
__device__ double __fma_ru(double, double, double);
__device__ double __drcp_ru(double);
__device__ double __dsqrt_ru(double);
__device__ float __double2float_rz(double);
__device__ long long __float2ll_rz(float);
__device__ unsigned long long __float2ull_rz(float);
__device__ float __int2float_rz(int);
__device__ float __uint2float_rz(unsigned int);
__device__ float __ll2float_rz(long long);
__device__ float __ull2float_rz(unsigned long long);
__device__ double __ll2double_rz(long long);
__device__ double __ull2double_rz(unsigned long long);
__device__ float __fadd_rz(float, float);
__device__ double __dadd_rz(double, double);
__device__ float __fsub_rz(float, float);
__device__ double __dsub_rz(double, double);
__device__ float __fmul_rz(float, float);
__device__ double __dmul_rz(double, double);
__device__ double __ddiv_rz(double, double);
__device__ float __fmaf_rz(float, float, float);
__device__ double __fma_rz(double, double, double);
__device__ double __drcp_rz(double);
__device__ double __dsqrt_rz(double);
__device__ unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __urhadd(unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ int __hadd(int, int);
__device__ int __rhadd(int, int);
__device__ unsigned int __uhadd(unsigned int, unsigned int);
__device__ int __mulhi(int, int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ unsigned int __fns(unsigned int, unsigned int, int);
__device__ void __nanosleep(unsigned int);
__device__ int __dp4a(int, int, int);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ int __dp4a(char4, char4, int);
__device__ unsigned int __dp4a(uchar4, uchar4, unsigned int);
__device__ int __dp2a_lo(int, int, int);
__device__ unsigned int __dp2a_lo(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_hi(int, int, int);
__device__ unsigned int __dp2a_hi(unsigned int, unsigned int, unsigned int);
__device__ int __reduce_add_sync(unsigned int, int);
__device__ int __reduce_min_sync(unsigned int, int);
__device__ int __reduce_max_sync(unsigned int, int);
__device__ unsigned int __isShared(const void *);
__device__ unsigned int __isGlobal(const void *);
__device__ int __vimax3_s32(int, int, int);
__device__ int __viaddmax_s32(int, int, int);
__device__ int __vimax3_s32_relu(int, int, int);
__device__ int __viaddmax_s32_relu(int, int, int);
__device__ unsigned int __vimax3_s16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmax_s16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimax3_s16x2_relu(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmax_s16x2_relu(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimax3_u32(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmax_u32(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimax3_u16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmax_u16x2(unsigned int, unsigned int, unsigned int);
__device__ int __vimax_s32_relu(int, int);
__device__ unsigned int __vimax_s16x2_relu(unsigned int, unsigned int);
__device__ int __vibmax_s32(int, int, bool *);
__device__ unsigned int __vibmax_u32(unsigned int, unsigned int, bool *);
__device__ unsigned int __vibmax_s16x2(unsigned int, unsigned int, bool *, bool *);
__device__ unsigned int __vibmax_u16x2(unsigned int, unsigned int, bool *, bool *);
__device__ int __vimin3_s32(int, int, int);
__device__ int __viaddmin_s32(int, int, int);
__device__ int __vimin3_s32_relu(int, int, int);
__device__ int __viaddmin_s32_relu(int, int, int);
__device__ unsigned int __vimin3_s16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmin_s16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimin3_s16x2_relu(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmin_s16x2_relu(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimin3_u32(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmin_u32(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __vimin3_u16x2(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __viaddmin_u16x2(unsigned int, unsigned int, unsigned int);
__device__ int __vimin_s32_relu(int, int);
__device__ unsigned int __vimin_s16x2_relu(unsigned int, unsigned int);
__device__ int __vibmin_s32(int, int, bool *);
__device__ unsigned int __vibmin_u32(unsigned int, unsigned int, bool *);
__device__ unsigned int __vibmin_s16x2(unsigned int, unsigned int, bool *, bool *);
__device__ unsigned int __vibmin_u16x2(unsigned int, unsigned int, bool *, bool *);
__host__ __device__ size_t __cvta_generic_to_shared(const void *);
__host__ __device__ size_t __cvta_generic_to_global(const void *);
__host__ __device__ void *__cvta_shared_to_generic(size_t);
__device__ unsigned int __match_any_sync(unsigned int, unsigned int);
__device__ unsigned int __match_all_sync(unsigned int, unsigned int, int *);
__device__ unsigned int __reduce_add_sync(unsigned int, unsigned int);
__device__ unsigned int __reduce_min_sync(unsigned int, unsigned int);
__device__ unsigned int __reduce_max_sync(unsigned int, unsigned int);
__device__ unsigned int __reduce_and_sync(unsigned int, unsigned int);
__device__ unsigned int __reduce_or_sync(unsigned int, unsigned int);
__device__ unsigned int __lanemask_lt(void);
__device__ unsigned int __lanemask_le(void);
__device__ unsigned int __lanemask_gt(void);
__device__ unsigned int __lanemask_ge(void);
__device__ unsigned int __lanemask_eq(void);
__device__ long long clock64(void);
__device__ unsigned long long __globaltimer(void);
__device__ int __any(int);
__device__ int __all(int);
__device__ void __prof_trigger(int);
__device__ void __trap(void);
__device__ void __brkpt(void);
__host__ __device__ float saturate(float);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
#define __DRFSCAN_MATH1X(F) __device__ float F##f(float); __device__ double F(double);
__DRFSCAN_MATH1X(sinpi) __DRFSCAN_MATH1X(cospi) __DRFSCAN_MATH1X(asinh) __DRFSCAN_MATH1X(acosh)
__DRFSCAN_MATH1X(atanh) __DRFSCAN_MATH1X(erfinv) __DRFSCAN_MATH1X(erfcinv) __DRFSCAN_MATH1X(normcdf)
__DRFSCAN_MATH1X(normcdfinv) __DRFSCAN_MATH1X(nearbyint) __DRFSCAN_MATH1X(logb) __DRFSCAN_MATH1X(rcbrt)
__DRFSCAN_MATH1X(j0) __DRFSCAN_MATH1X(j1) __DRFSCAN_MATH1X(y0) __DRFSCAN_MATH1X(y1) __DRFSCAN_MATH1X(erfcx)
#undef __DRFSCAN_MATH1X
__device__ float frexpf(float, int *);
__device__ double frexp(double, int *);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float modff(float, float *);
__device__ double modf(double, double *);
__device__ float scalbnf(float, int);
__device__ double scalbn(double, int);
__device__ float nextafterf(float, float);
__device__ double nextafter(double, double);
__device__ int ilogbf(float);
__device__ int ilogb(double);
__device__ long lrintf(float);
__device__ long lroundf(float);
__device__ long long llrintf(float);
__device__ long long llroundf(float);
__device__ long lround(double);
__device__ long long llround(double);
__host__ __device__ float norm3df(float, float, float);
__host__ __device__ float rnorm3df(float, float, float);
__host__ __device__ float norm4df(float, float, float, float);
__host__ __device__ float rhypotf(float, float);
__host__ __device__ float powif(float, int);
__host__ __device__ double powi(double, int);
__device__ float fabsf(float);
__device__ inline long labs(long a) { return a < 0 ? -a : a; }
__device__ float abs(float);
__device__ double abs(double);
__host__ __device__ inline long long min(long long a, int b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, int b) { return a < (unsigned int)b ? a : (unsigned int)b; }
__host__ __device__ inline unsigned int max(unsigned int a, int b) { return a > (unsigned int)b ? a : (unsigned int)b; }
__host__ __device__ inline unsigned int min(int a, unsigned int b) { return (unsigned int)a < b ? (unsigned int)a : b; }
__host__ __device__ inline unsigned int max(int a, unsigned int b) { return (unsigned int)a > b ? (unsigned int)a : b; }
__host__ __device__ inline unsigned long long min(unsigned long long a, long long b) { return a < (unsigned long long)b ? a : (unsigned long long)b; }
__host__ __device__ inline unsigned long long max(unsigned long long a, long long b) { return a > (unsigned long long)b ? a : (unsigned long long)b; }
__host__ __device__ float min(float, double);
__host__ __device__ float max(float, double);
__device__ unsigned int atomicAdd(unsigned long *, unsigned long);
__device__ float atomicMin(float *, float);
__device__ float atomicMax(float *, float);
__device__ unsigned short atomicCAS(unsigned short *, unsigned short, unsigned short);
#define __DRFSCAN_ATOMIC_SCOPED(NAME, T) __device__ T NAME##_block(T *, T); __device__ T NAME##_system(T *, T);
#define __DRFSCAN_ATOMIC_SCOPED_ALL(NAME) __DRFSCAN_ATOMIC_SCOPED(NAME, int) __DRFSCAN_ATOMIC_SCOPED(NAME, unsigned int) \
  __DRFSCAN_ATOMIC_SCOPED(NAME, unsigned long long) __DRFSCAN_ATOMIC_SCOPED(NAME, long long)
__DRFSCAN_ATOMIC_SCOPED_ALL(atomicAdd) __DRFSCAN_ATOMIC_SCOPED(atomicAdd, float) __DRFSCAN_ATOMIC_SCOPED(atomicAdd, double)
__DRFSCAN_ATOMIC_SCOPED_ALL(atomicSub) __DRFSCAN_ATOMIC_SCOPED_ALL(atomicExch) __DRFSCAN_ATOMIC_SCOPED(atomicExch, float)
__DRFSCAN_ATOMIC_SCOPED_ALL(atomicMin) __DRFSCAN_ATOMIC_SCOPED_ALL(atomicMax) __DRFSCAN_ATOMIC_SCOPED_ALL(atomicAnd)
__DRFSCAN_ATOMIC_SCOPED_ALL(atomicOr) __DRFSCAN_ATOMIC_SCOPED_ALL(atomicXor)
__DRFSCAN_ATOMIC_SCOPED(atomicInc, unsigned int) __DRFSCAN_ATOMIC_SCOPED(atomicDec, unsigned int)
#undef __DRFSCAN_ATOMIC_SCOPED_ALL
#undef __DRFSCAN_ATOMIC_SCOPED
__device__ int atomicCAS_block(int *, int, int);
__device__ unsigned int atomicCAS_block(unsigned int *, unsigned int, unsigned int);
__device__ unsigned long long atomicCAS_block(unsigned long long *, unsigned long long, unsigned long long);
__device__ int atomicCAS_system(int *, int, int);
__device__ unsigned int atomicCAS_system(unsigned int *, unsigned int, unsigned int);
__device__ unsigned long long atomicCAS_system(unsigned long long *, unsigned long long, unsigned long long);

/* Host runtime API that host code of kernels' files commonly calls: host
   code is never analysed, but declaring it keeps its diagnostics quiet. */
struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock; int regsPerBlock;
  int warpSize; size_t memPitch; int maxThreadsPerBlock; int maxThreadsDim[3]; int maxGridSize[3];
  int clockRate; size_t totalConstMem; int major; int minor; int multiProcessorCount;
  int maxThreadsPerMultiProcessor; int sharedMemPerMultiprocessor; int l2CacheSize; int concurrentKernels;
  int memoryClockRate; int memoryBusWidth; int computeMode; int integrated; int canMapHostMemory;
  int unifiedAddressing; int managedMemory; int deviceOverlap; int asyncEngineCount; int ECCEnabled;
  int pciBusID; int pciDeviceID; int pciDomainID; int kernelExecTimeoutEnabled; size_t textureAlignment;
  size_t sharedMemPerBlockOptin; int regsPerMultiprocessor; int cooperativeLaunch;
  int concurrentManagedAccess; int maxBlocksPerMultiProcessor; int isMultiGpuBoard; int tccDriver;
  int pageableMemoryAccess; int hostNativeAtomicSupported; int memoryPoolsSupported; int persistingL2CacheMaxSize; };
struct cudaFuncAttributes { size_t sharedSizeBytes; size_t constSizeBytes; size_t localSizeBytes; int maxThreadsPerBlock; int numRegs; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPitchedPtr { void *ptr; size_t pitch; size_t xsize; size_t ysize; };
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
enum cudaLimit { cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize, cudaLimitDevRuntimeSyncDepth, cudaLimitDevRuntimePendingLaunchCount, cudaLimitMaxL2FetchGranularity, cudaLimitPersistingL2CacheSize };
#define cudaErrorInvalidValue 1
#define cudaErrorMemoryAllocation 2
#define cudaHostAllocDefault 0
#define cudaHostAllocPortable 1
#define cudaHostAllocMapped 2
#define cudaEventDefault 0
#define cudaEventBlockingSync 1
#define cudaEventDisableTiming 2
#define cudaStreamNonBlocking 1
#define cudaDeviceScheduleBlockingSync 4
#define cudaDeviceMapHost 8
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *, int);
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaGetDevice(int *);
cudaError_t cudaSetDeviceFlags(unsigned int);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaMemGetInfo(size_t *, size_t *);
cudaError_t cudaMallocHost(void **, size_t);
template <class T> cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
cudaError_t cudaHostAlloc(void **, size_t, unsigned int);
template <class T> cudaError_t cudaHostAlloc(T **p, size_t n, unsigned int f) { return cudaHostAlloc((void **)p, n, f); }
cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned int);
template <class T> cudaError_t cudaHostGetDevicePointer(T **p, void *h, unsigned int f) { return cudaHostGetDevicePointer((void **)p, h, f); }
cudaError_t cudaFreeHost(void *);
cudaError_t cudaMallocPitch(void **, size_t *, size_t, size_t);
template <class T> cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h) { return cudaMallocPitch((void **)p, pitch, w, h); }
cudaError_t cudaMallocArray(cudaArray_t *, const cudaChannelFormatDesc *, size_t, size_t = 0, unsigned int = 0);
cudaError_t cudaFreeArray(cudaArray_t);
cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyToArray(cudaArray_t, size_t, size_t, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t cudaMemcpyToSymbol(const T &s, const void *src, size_t n, size_t off = 0, cudaMemcpyKind k = cudaMemcpyHostToDevice) { return cudaMemcpyToSymbol((const void *)&s, src, n, off, k); }
template <class T> cudaError_t cudaMemcpyFromSymbol(void *dst, const T &s, size_t n, size_t off = 0, cudaMemcpyKind k = cudaMemcpyDeviceToHost) { return cudaMemcpyFromSymbol(dst, (const void *)&s, n, off, k); }
cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyHostToDevice, cudaStream_t = 0);
cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t = 0);
cudaError_t cudaGetSymbolAddress(void **, const void *);
cudaError_t cudaBindTexture(size_t *, const void *, const void *, const cudaChannelFormatDesc *, size_t = ~(size_t)0);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaBindTexture(size_t *, const texture<T, d, m> &, const void *, size_t = ~(size_t)0);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaBindTexture(size_t *, const texture<T, d, m> &, const void *, const cudaChannelFormatDesc &, size_t = ~(size_t)0);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaBindTexture2D(size_t *, const texture<T, d, m> &, const void *, const cudaChannelFormatDesc &, size_t, size_t, size_t);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaBindTextureToArray(const texture<T, d, m> &, cudaArray_t, const cudaChannelFormatDesc &);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaBindTextureToArray(const texture<T, d, m> &, cudaArray_t);
template <class T, int d, enum cudaTextureReadMode m> cudaError_t cudaUnbindTexture(const texture<T, d, m> &);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *, const cudaResourceDesc *, const cudaTextureDesc *, const void *);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);
cudaError_t cudaEventQuery(cudaEvent_t);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *, const void *);
cudaError_t cudaFuncSetCacheConfig(const void *, cudaFuncCache);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig);
cudaError_t cudaFuncSetAttribute(const void *, int, int);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0);
cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0);
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *, int *, const void *, size_t = 0, int = 0);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, const void *, int, size_t);
/* The runtime's overloads for a kernel named as itself, not as a pointer. */
template <class T> cudaError_t cudaOccupancyMaxPotentialBlockSize(int *, int *, T *, size_t = 0, int = 0);
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, T *, int, size_t);
template <class T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *, T *);
template <class T> cudaError_t cudaFuncSetCacheConfig(T *, cudaFuncCache);
template <class T> cudaError_t cudaFuncSetAttribute(T *, int, int);
template <class T> cudaError_t cudaLaunchKernel(T *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0);
template <class T> cudaError_t cudaLaunchCooperativeKernel(T *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0);
/* Extensible launches: the configuration's sizes, and the attributes code
   sets most (cooperative, clusters, programmatic serialisation). */
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1, cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3, cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5, cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7, cudaLaunchAttributePriority = 8, cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10, cudaLaunchAttributeLaunchCompletionEvent = 12,
  cudaLaunchAttributeDeviceUpdatableKernelNode = 13
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct { unsigned int x; unsigned int y; unsigned int z; } clusterDim;
  int programmaticStreamSerializationAllowed;
  struct { cudaEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
  int priority;
  struct { cudaEvent_t event; int flags; } launchCompletionEvent;
};
typedef struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id; char pad[8 - sizeof(cudaLaunchAttributeID)]; cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim; dim3 blockDim; size_t dynamicSmemBytes; cudaStream_t stream;
  cudaLaunchAttribute *attrs; unsigned int numAttrs;
} cudaLaunchConfig_t;
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *, const void *, void **);
template <class... E, class... A> cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *, void (*)(E...), A &&...);
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10, cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
#define cudaFuncAttributeMaxDynamicSharedMemorySize 8
cudaError_t cudaDeviceGetAttribute(int *, int, int);
struct cudaExtent make_cudaExtent(size_t, size_t, size_t);
struct cudaPitchedPtr make_cudaPitchedPtr(void *, size_t, size_t, size_t);
cudaError_t cudaDeviceCanAccessPeer(int *, int, int);
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int);
cudaError_t cudaDeviceDisablePeerAccess(int);
cudaError_t cudaMemcpyPeer(void *, int, const void *, int, size_t);
cudaError_t cudaMemcpyPeerAsync(void *, int, const void *, int, size_t, cudaStream_t = 0);
cudaError_t cudaHostRegister(void *, size_t, unsigned int);
cudaError_t cudaHostUnregister(void *);
cudaError_t cudaMemAdvise(const void *, size_t, int, int);
cudaError_t cudaStreamQuery(cudaStream_t);
cudaError_t cudaDeviceGetLimit(size_t *, int);
/* Streams and graphs, memory pools, 3D copies, pointers and IPC. */
#define cudaStreamDefault 0
#define cudaHostRegisterDefault 0
#define cudaHostRegisterPortable 1
#define cudaHostRegisterMapped 2
#define cudaHostAllocWriteCombined 4
#define cudaMemAttachGlobal 1
#define cudaMemAttachHost 2
#define cudaMemAttachSingle 4
#define cudaCpuDeviceId (-1)
enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly, cudaMemAdviseSetPreferredLocation, cudaMemAdviseUnsetPreferredLocation, cudaMemAdviseSetAccessedBy, cudaMemAdviseUnsetAccessedBy };
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed };
enum cudaComputeMode { cudaComputeModeDefault, cudaComputeModeExclusive, cudaComputeModeProhibited, cudaComputeModeExclusiveProcess };
enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear, cudaResourceTypePitch2D };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
enum cudaMemLocationType { cudaMemLocationTypeInvalid, cudaMemLocationTypeDevice };
enum cudaMemPoolAttr { cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic, cudaMemPoolReuseAllowInternalDependencies, cudaMemPoolAttrReleaseThreshold, cudaMemPoolAttrReservedMemCurrent, cudaMemPoolAttrReservedMemHigh, cudaMemPoolAttrUsedMemCurrent, cudaMemPoolAttrUsedMemHigh };
enum cudaMemoryType { cudaMemoryTypeUnregistered, cudaMemoryTypeHost, cudaMemoryTypeDevice, cudaMemoryTypeManaged };
#define cudaDevAttrMemoryClockRate ((cudaDeviceAttr)36)
#define cudaDevAttrGlobalMemoryBusWidth ((cudaDeviceAttr)37)
#define cudaDevAttrL2CacheSize ((cudaDeviceAttr)38)
#define cudaDevAttrComputeMode ((cudaDeviceAttr)20)
#define cudaDevAttrConcurrentKernels ((cudaDeviceAttr)31)
#define cudaDevAttrConcurrentManagedAccess ((cudaDeviceAttr)89)
#define cudaDevAttrMemoryPoolsSupported ((cudaDeviceAttr)115)
struct cudaMemLocation { cudaMemLocationType type; int id; };
cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t = 0);
cudaError_t cudaMemPrefetchAsync(const void *, size_t, cudaMemLocation, unsigned int, cudaStream_t = 0);
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef void (*cudaHostFn_t)(void *);
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);
struct cudaKernelNodeParams { void *func; dim3 gridDim; dim3 blockDim; unsigned int sharedMemBytes; void **kernelParams; void **extra; };
struct cudaPos { size_t x, y, z; };
struct cudaMemcpy3DParms { cudaArray_t srcArray; cudaPos srcPos; cudaPitchedPtr srcPtr; cudaArray_t dstArray; cudaPos dstPos; cudaPitchedPtr dstPtr; cudaExtent extent; cudaMemcpyKind kind; };
struct cudaPointerAttributes { cudaMemoryType type; int device; void *devicePointer; void *hostPointer; };
struct cudaIpcMemHandle_t { char reserved[64]; };
struct cudaIpcEventHandle_t { char reserved[64]; };
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *, unsigned int, int);
cudaError_t cudaDeviceGetStreamPriorityRange(int *, int *);
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void *, unsigned int);
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void *);
cudaError_t cudaGraphCreate(cudaGraph_t *, unsigned int);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, cudaGraphNode_t * = 0, char * = 0, size_t = 0);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const cudaKernelNodeParams *);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t);
cudaError_t cudaGraphDestroy(cudaGraph_t);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *, int);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *);
cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t);
template <class T> cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) { return cudaMallocAsync((void **)p, n, s); }
cudaError_t cudaFreeAsync(void *, cudaStream_t);
cudaError_t cudaMalloc3D(cudaPitchedPtr *, cudaExtent);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *, cudaStream_t = 0);
cudaError_t cudaMemset2D(void *, size_t, int, size_t, size_t);
cudaError_t cudaMemset3D(cudaPitchedPtr, int, cudaExtent);
cudaError_t cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t = 0);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t = 0, unsigned int = 4);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *, const void *);
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *);
cudaError_t cudaIpcOpenMemHandle(void **, cudaIpcMemHandle_t, unsigned int);
cudaError_t cudaIpcCloseMemHandle(void *);
cudaError_t cudaDriverGetVersion(int *);
cudaError_t cudaRuntimeGetVersion(int *);
const char *cudaGetErrorName(cudaError_t);
cudaError_t cudaDeviceSetLimit(int, size_t);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDriverGetVersion(int *);
cudaError_t cudaRuntimeGetVersion(int *);
const char *cudaGetErrorName(cudaError_t);

/* nvcc's runtime header brings the host's C library and C++ math with it
   (host code calls `printf` without <stdio.h>). The system's headers are
   used when installed, else drfscan's small fallbacks, searched last. The
   device side of their functions is declared above, device-only, as
   clang's own CUDA headers do: a `__host__ __device__` redeclaration of a
   host function is an error, and declared first, the device overloads are
   seen by the C++ library's templates (`std::pow(x, 2)`). */
#include <cmath>
#include <math.h>
#include <cstdlib>
#include <stdlib.h>
#include <cstdio>
#include <stdio.h>
#if __has_include(<cstring>)
#include <cstring>
#endif
/* `std::sqrt(x)` in device code finds the device overloads too (the
   fallback <cmath> has no namespace std). */
#define __DRFSCAN_STD(F) using ::F; using ::F##f;
namespace std {
__DRFSCAN_STD(sqrt) __DRFSCAN_STD(rsqrt) __DRFSCAN_STD(cbrt)
__DRFSCAN_STD(exp) __DRFSCAN_STD(exp2) __DRFSCAN_STD(exp10)
__DRFSCAN_STD(expm1) __DRFSCAN_STD(log) __DRFSCAN_STD(log2)
__DRFSCAN_STD(log10) __DRFSCAN_STD(log1p) __DRFSCAN_STD(sin)
__DRFSCAN_STD(cos) __DRFSCAN_STD(tan) __DRFSCAN_STD(asin)
__DRFSCAN_STD(acos) __DRFSCAN_STD(atan) __DRFSCAN_STD(sinh)
__DRFSCAN_STD(cosh) __DRFSCAN_STD(tanh) __DRFSCAN_STD(fabs)
__DRFSCAN_STD(floor) __DRFSCAN_STD(ceil) __DRFSCAN_STD(round)
__DRFSCAN_STD(trunc) __DRFSCAN_STD(rint) __DRFSCAN_STD(erf)
__DRFSCAN_STD(erfc) __DRFSCAN_STD(lgamma) __DRFSCAN_STD(tgamma)
__DRFSCAN_STD(pow) __DRFSCAN_STD(fmin) __DRFSCAN_STD(fmax)
__DRFSCAN_STD(fmod) __DRFSCAN_STD(atan2) __DRFSCAN_STD(hypot)
__DRFSCAN_STD(copysign) __DRFSCAN_STD(fdim) __DRFSCAN_STD(remainder)
__DRFSCAN_STD(fma) __DRFSCAN_STD(frexp) __DRFSCAN_STD(ldexp)
__DRFSCAN_STD(modf) __DRFSCAN_STD(scalbn) __DRFSCAN_STD(nextafter)
__DRFSCAN_STD(ilogb) __DRFSCAN_STD(asinh) __DRFSCAN_STD(acosh)
__DRFSCAN_STD(atanh) __DRFSCAN_STD(nearbyint) __DRFSCAN_STD(logb)
__DRFSCAN_STD(nan)
using ::lround; using ::lroundf; using ::llround; using ::llroundf;
using ::lrintf; using ::llrintf; using ::abs; using ::labs; using ::llabs;
}
#undef __DRFSCAN_STD

#include "drfscan_annotations.h"
#include "drfscan_device_runtime.h"

#endif
