// expect: drf
// `n` items split evenly over every thread of the grid: thread `p` takes
// `n * p / threads .. n * (p + 1) / threads`. Floor division keeps order,
// so the end of one thread's range is at most the start of the next.
__global__ void step_all(float *in, float *out, const int n) {
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    for (int i = n * p / threads; i < n * (p + 1) / threads; ++i)
        out[i] = in[i] > 0.0f ? 1.0f : 0.0f;
}

void step(float *in, float *out, int n) {
    step_all<<<64, 64>>>(in, out, n);
}
