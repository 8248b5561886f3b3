/* drfscan built-in stub of the toolkit's cuda_fp8.h: the 8-bit floating
   point storage types, the E4M3 and E5M2 classes (of one, two and four
   values) and their conversions, declared only. */
#ifndef __DRFSCAN_CUDA_FP8_H
#define __DRFSCAN_CUDA_FP8_H
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;
__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(double, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t, __nv_fp8_interpretation_t);
__host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t, __nv_fp8_interpretation_t);
struct __nv_fp8_e4m3 {
  __nv_fp8_storage_t __x;
  __host__ __device__ __nv_fp8_e4m3() {}
  __host__ __device__ explicit __nv_fp8_e4m3(float);
  __host__ __device__ explicit __nv_fp8_e4m3(double);
  __host__ __device__ explicit __nv_fp8_e4m3(__half);
  __host__ __device__ explicit __nv_fp8_e4m3(__nv_bfloat16);
  __host__ __device__ explicit __nv_fp8_e4m3(int);
  __host__ __device__ explicit operator float() const;
  __host__ __device__ explicit operator __half() const;
  __host__ __device__ explicit operator __nv_bfloat16() const;
};
struct __nv_fp8_e5m2 {
  __nv_fp8_storage_t __x;
  __host__ __device__ __nv_fp8_e5m2() {}
  __host__ __device__ explicit __nv_fp8_e5m2(float);
  __host__ __device__ explicit __nv_fp8_e5m2(double);
  __host__ __device__ explicit __nv_fp8_e5m2(__half);
  __host__ __device__ explicit __nv_fp8_e5m2(__nv_bfloat16);
  __host__ __device__ explicit __nv_fp8_e5m2(int);
  __host__ __device__ explicit operator float() const;
  __host__ __device__ explicit operator __half() const;
  __host__ __device__ explicit operator __nv_bfloat16() const;
};
struct __nv_fp8x2_e4m3 {
  __nv_fp8x2_storage_t __x;
  __host__ __device__ __nv_fp8x2_e4m3() {}
  __host__ __device__ explicit __nv_fp8x2_e4m3(float2);
  __host__ __device__ explicit __nv_fp8x2_e4m3(double2);
  __host__ __device__ explicit __nv_fp8x2_e4m3(__half2);
  __host__ __device__ explicit __nv_fp8x2_e4m3(__nv_bfloat162);
  __host__ __device__ explicit operator float2() const;
  __host__ __device__ explicit operator __half2() const;
};
struct __nv_fp8x2_e5m2 {
  __nv_fp8x2_storage_t __x;
  __host__ __device__ __nv_fp8x2_e5m2() {}
  __host__ __device__ explicit __nv_fp8x2_e5m2(float2);
  __host__ __device__ explicit __nv_fp8x2_e5m2(double2);
  __host__ __device__ explicit __nv_fp8x2_e5m2(__half2);
  __host__ __device__ explicit __nv_fp8x2_e5m2(__nv_bfloat162);
  __host__ __device__ explicit operator float2() const;
  __host__ __device__ explicit operator __half2() const;
};
struct __nv_fp8x4_e4m3 {
  __nv_fp8x4_storage_t __x;
  __host__ __device__ __nv_fp8x4_e4m3() {}
  __host__ __device__ explicit __nv_fp8x4_e4m3(float4);
  __host__ __device__ explicit __nv_fp8x4_e4m3(double4);
  __host__ __device__ explicit __nv_fp8x4_e4m3(__half2, __half2);
  __host__ __device__ explicit __nv_fp8x4_e4m3(__nv_bfloat162, __nv_bfloat162);
  __host__ __device__ explicit operator float4() const;
};
struct __nv_fp8x4_e5m2 {
  __nv_fp8x4_storage_t __x;
  __host__ __device__ __nv_fp8x4_e5m2() {}
  __host__ __device__ explicit __nv_fp8x4_e5m2(float4);
  __host__ __device__ explicit __nv_fp8x4_e5m2(double4);
  __host__ __device__ explicit __nv_fp8x4_e5m2(__half2, __half2);
  __host__ __device__ explicit __nv_fp8x4_e5m2(__nv_bfloat162, __nv_bfloat162);
  __host__ __device__ explicit operator float4() const;
};
#endif
