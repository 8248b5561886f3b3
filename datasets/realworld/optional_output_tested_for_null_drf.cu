// expect: drf
// options: --block-dim 256
// A kernel with an optional output (`float *sums`, null when the caller
// does not want it): the block reduction and its barriers run only `if
// (sums)`, and a later `if (sums != nullptr)` and `if (sums == NULL)`
// test the same pointer, which is one value for the whole launch.
#include <cstddef>

__global__ void scale_rows(const float *in, float *out, float *sums, float k)
{
    __shared__ float part[256];
    int t = threadIdx.x;
    float v = in[blockIdx.x * 256 + t] * k;
    out[blockIdx.x * 256 + t] = v;
    if (sums) {
        part[t] = v;
        for (int s = 128; s > 0; s >>= 1) {
            __syncthreads();
            if (t < s)
                part[t] += part[t + s];
        }
    }
    if (sums != nullptr) {
        __syncthreads();
        if (t == 0)
            sums[blockIdx.x] = part[0];
    }
    if (sums == NULL)
        __syncthreads();
}
