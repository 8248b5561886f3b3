//pass
//--blockDim=[64,1,1] --gridDim=[16,1,1]

#include <cuda.h>

// GPUVerify-style header: each block reverses its 64-element segment
// through shared memory.

__global__ void reverse_in_block(int *A) {
  __shared__ int tmp[64];
  tmp[threadIdx.x] = A[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  A[blockIdx.x * 64 + threadIdx.x] = tmp[63 - threadIdx.x];
}
