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
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __NVCC__ 1
#define CUDART_VERSION 12000

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned long ulong;
typedef int cudaError_t;
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
#define __DRFSCAN_VECS(T, N) __DRFSCAN_VEC2(T, N) __DRFSCAN_VEC3(T, N) __DRFSCAN_VEC4(T, N)
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
__DRFSCAN_SHFL(long long)
__DRFSCAN_SHFL(unsigned long long)
__DRFSCAN_SHFL(float)
__DRFSCAN_SHFL(double)
#undef __DRFSCAN_SHFL

/* Cached loads. */
template <class T> __device__ T __ldg(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldca(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldlu(const T *);

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
#define __DRFSCAN_MATH1(F) __host__ __device__ float F##f(float); __host__ __device__ double F(double);
#define __DRFSCAN_MATH2(F) __host__ __device__ float F##f(float, float); __host__ __device__ double F(double, double);
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
__host__ __device__ float fmaf(float, float, float);
__host__ __device__ double fma(double, double, double);
__host__ __device__ void sincosf(float, float *, float *);
__host__ __device__ void sincos(double, double *, double *);
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
__host__ __device__ int isnan(float);
__host__ __device__ int isinf(float);
__host__ __device__ int isfinite(float);
__host__ __device__ inline int abs(int a) { return a < 0 ? -a : a; }
__host__ __device__ inline long long llabs(long long a) { return a < 0 ? -a : a; }
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__host__ __device__ float min(float, float);
__host__ __device__ float max(float, float);
__host__ __device__ double min(double, double);
__host__ __device__ double max(double, double);
__host__ __device__ unsigned int umin(unsigned int, unsigned int);
__host__ __device__ unsigned int umax(unsigned int, unsigned int);

/* Output, assertions, memory. */
extern "C" __host__ __device__ int printf(const char *, ...);
extern "C" __host__ __device__ void __assertfail(const char *, const char *, unsigned int, const char *, size_t);
extern "C" __host__ __device__ void *malloc(size_t);
extern "C" __host__ __device__ void free(void *);
extern "C" __host__ __device__ void *memcpy(void *, const void *, size_t);
extern "C" __host__ __device__ void *memset(void *, int, size_t);

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

/* GPUVerify annotations: `__requires(e)` and `__assume(e)` become
   assumptions of the analysis. */
__device__ void __requires(bool);
__device__ void __assume(bool);
__device__ void __assert(bool);
__device__ void __ensures(bool);
__device__ void __invariant(bool);
__device__ void __global_invariant(bool);
__device__ bool __implies(bool, bool);
__device__ int __other_int(int);
__device__ bool __same_group(void);
#define __function_wide_invariant(X)
#define __global_requires(X) __requires(X)

#endif
