//xfail:BOOGIE_ERROR
//--blockDim=64 --gridDim=8
//possible write-write race on A

// GPUVerify-style header (scalar dimensions) for a kernel that indexes a
// global array by threadIdx.x only: the blocks overwrite each other.

__global__ void per_thread_slot(int *A) {
  A[threadIdx.x] = blockIdx.x;
}
