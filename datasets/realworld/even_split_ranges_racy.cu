// expect: racy
// As `even_split_ranges_drf.cu` with each range running one share too far
// (`n * (p + 2) / threads`): it takes in the next thread's first items.
__global__ void step_all(float *in, float *out, const int n) {
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    for (int i = n * p / threads; i < n * (p + 2) / threads; ++i)
        out[i] = in[i] > 0.0f ? 1.0f : 0.0f;
}

void step(float *in, float *out, int n) {
    step_all<<<64, 64>>>(in, out, n);
}
