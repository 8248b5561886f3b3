// expect: drf
// Row normalisation with a CUB block reduction: the kernel's own loops
// step by 256, the width its `cub::BlockReduce<float, 256>` names. CUB
// requires the block to be exactly that shape, so no launch, read or not,
// runs it with more threads.
#include <cub/cub.cuh>

__global__ void normalize_rows(const float *x, float *y)
{
    typedef cub::BlockReduce<float, 256> Reduce;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ float total;
    const float *row = x + blockIdx.x * 1024;
    float sum = 0.0f;
    for (int j = threadIdx.x; j < 1024; j += 256)
        sum += row[j];
    sum = Reduce(temp).Sum(sum);
    if (threadIdx.x == 0)
        total = sum;
    __syncthreads();
    for (int j = threadIdx.x; j < 1024; j += 256)
        y[blockIdx.x * 1024 + j] = row[j] / total;
}
