//xfail:BOOGIE_ERROR
//--blockDim=[64,1,1] --gridDim=[1,1,1]
//possible write-read race on tmp

// GPUVerify-style header for a racy kernel: the reversal without a barrier.

__global__ void reverse_no_barrier(int *A) {
  __shared__ int tmp[64];
  tmp[threadIdx.x] = A[threadIdx.x];
  A[threadIdx.x] = tmp[63 - threadIdx.x];
}
