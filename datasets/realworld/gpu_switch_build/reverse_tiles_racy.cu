// expect: racy
// reverse_tiles_drf.cu launched with blocks twice the tile
// (`<<<…, 2 * BLOCK>>>`): the second half of a block writes past its tile
// into the next block's cells.
#include "net.h"

__global__ void reverse_tiles(int n, const float *in, float *out)
{
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (threadIdx.x < BLOCK)
        tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n && threadIdx.x < BLOCK)
        out[i] = tile[BLOCK - 1 - threadIdx.x];
    if (i < n && threadIdx.x >= BLOCK)
        out[i] = 0.0f;
}

void reverse_gpu(int n, const float *in, float *out)
{
    reverse_tiles<<<(n + BLOCK - 1) / BLOCK, 2 * BLOCK>>>(n, in, out);
}
