// expect: racy
// As `host_template_builtin_type_args_drf.cu`, with each thread also
// writing the cell after its own: with STRIDE 1 that is the next thread's.
template <typename T, int STRIDE, int OFFSET>
__global__ void interleave(T *out, const T *in) {
    out[threadIdx.x * STRIDE + OFFSET] = in[threadIdx.x];
    out[threadIdx.x * STRIDE + OFFSET + 1] = in[threadIdx.x];
}

template <typename T>
void run(T *out, const T *even, const T *odd) {
    interleave<float, 1, 0><<<1, 64>>>(out, even);
}

void go(float *out, const float *even, const float *odd) { run(out, even, odd); }
