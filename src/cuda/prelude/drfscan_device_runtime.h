/* The device runtime that dynamic parallelism gives kernels: clang's CUDA
   wrapper headers declare these for host code only, so kernels calling
   them did not compile. They have no effect on a kernel's protocol. */
#ifndef __DRFSCAN_DEVICE_RUNTIME_H
#define __DRFSCAN_DEVICE_RUNTIME_H
extern __device__ cudaError_t cudaDeviceSynchronize(void);
extern __device__ cudaError_t cudaGetLastError(void);
extern __device__ cudaError_t cudaPeekAtLastError(void);
extern __device__ const char *cudaGetErrorString(cudaError_t);
extern __device__ cudaError_t cudaGetDevice(int *);
extern __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);
extern __device__ cudaError_t cudaStreamDestroy(cudaStream_t);
extern __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);
extern __device__ cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
extern __device__ cudaError_t cudaEventDestroy(cudaEvent_t);
extern __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int);
#endif
