// expect: racy
// cub_block_shape_drf.cu reducing with `cub::BlockReduce<float, 512>`:
// the block is 512 threads, and the loops' step of 256 makes threads
// t and t + 256 write the same cells of `y`.
#include <cub/cub.cuh>

__global__ void normalize_rows(const float *x, float *y)
{
    typedef cub::BlockReduce<float, 512> Reduce;
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
