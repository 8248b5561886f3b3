// expect: drf
// Rasterizer-style tile loop: each block copies its tile's [start, end)
// pair of a read-only range table whole (`uint2 range = ranges[tile]`),
// and the number of rounds over the tile's work, with a barrier in each,
// comes from the copy's fields: one value for the whole block.
#define BLOCK 256

__global__ void __launch_bounds__(BLOCK)
gather_tile(const uint2 *__restrict__ ranges, const int *__restrict__ ids,
            const float *__restrict__ values, float *out)
{
    __shared__ float staged[BLOCK];
    uint2 range = ranges[blockIdx.x];
    const int rounds = (range.y - range.x + BLOCK - 1) / BLOCK;
    float acc = 0.0f;
    for (int r = 0; r < rounds; r++) {
        int at = range.x + r * BLOCK + threadIdx.x;
        if (at < range.y)
            staged[threadIdx.x] = values[ids[at]];
        __syncthreads();
        for (int k = 0; k < BLOCK; k++)
            acc += staged[k];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
