// expect: drf
// `BLOCK` is defined only in the GPU build (`#ifdef GPU` in include/net.h),
// which the Makefile turns on with `make GPU=1`: read as that build, the
// launch's block is 256 threads and the tile is one block wide.
#include "net.h"

__global__ void reverse_tiles(int n, const float *in, float *out)
{
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = tile[BLOCK - 1 - threadIdx.x];
}

void reverse_gpu(int n, const float *in, float *out)
{
    reverse_tiles<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, in, out);
}
