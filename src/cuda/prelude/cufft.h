/* drfscan built-in stub of cuFFT's header: the types kernels use (a
   complex value is a `float2`) and the host calls most programs make. */
#ifndef __DRFSCAN_CUFFT_H
#define __DRFSCAN_CUFFT_H
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef float2 cufftComplex;
typedef double2 cufftDoubleComplex;
typedef int cufftHandle;
typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0, CUFFT_INVALID_PLAN = 1, CUFFT_ALLOC_FAILED = 2, CUFFT_INVALID_TYPE = 3,
  CUFFT_INVALID_VALUE = 4, CUFFT_INTERNAL_ERROR = 5, CUFFT_EXEC_FAILED = 6, CUFFT_SETUP_FAILED = 7,
  CUFFT_INVALID_SIZE = 8
} cufftResult;
typedef enum cufftType_t {
  CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69
} cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1
cufftResult cufftPlan1d(cufftHandle *, int, cufftType, int);
cufftResult cufftPlan2d(cufftHandle *, int, int, cufftType);
cufftResult cufftPlan3d(cufftHandle *, int, int, int, cufftType);
cufftResult cufftPlanMany(cufftHandle *, int, int *, int *, int, int, int *, int, int, cufftType, int);
cufftResult cufftExecC2C(cufftHandle, cufftComplex *, cufftComplex *, int);
cufftResult cufftExecR2C(cufftHandle, cufftReal *, cufftComplex *);
cufftResult cufftExecC2R(cufftHandle, cufftComplex *, cufftReal *);
cufftResult cufftExecZ2Z(cufftHandle, cufftDoubleComplex *, cufftDoubleComplex *, int);
cufftResult cufftExecD2Z(cufftHandle, cufftDoubleReal *, cufftDoubleComplex *);
cufftResult cufftExecZ2D(cufftHandle, cufftDoubleComplex *, cufftDoubleReal *);
cufftResult cufftSetStream(cufftHandle, cudaStream_t);
cufftResult cufftDestroy(cufftHandle);
#endif
