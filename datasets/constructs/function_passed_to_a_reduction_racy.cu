// expect: racy
// function_passed_to_a_reduction_drf.cu without the barrier between the two
// reductions: a thread that has read the maximum out of `scratch[0]` may
// still be reading it when thread 0 starts the sum over the same scratch.
__device__ float add(float a, float b) { return a + b; }

template <typename F>
__device__ float block_reduce(F op, float v, float *scratch)
{
    unsigned t = threadIdx.x;
    scratch[t] = v;
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        __syncthreads();
        if (t < s)
            scratch[t] = op(scratch[t], scratch[t + s]);
    }
    __syncthreads();
    return scratch[0];
}

__global__ __launch_bounds__(256) void row_stats(const float *x, float *peak, float *sum, int n)
{
    __shared__ float scratch[256];
    const float *row = x + blockIdx.x * n;
    float m = -1e30f, s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        m = fmaxf(m, row[i]);
        s = add(s, row[i]);
    }
    m = block_reduce(fmaxf, m, scratch);
    s = block_reduce(add, s, scratch);
    if (threadIdx.x == 0) {
        peak[blockIdx.x] = m;
        sum[blockIdx.x] = s;
    }
}

void launch(const float *x, float *peak, float *sum, int rows, int n)
{
    row_stats<<<rows, 256>>>(x, peak, sum, n);
}
