// expect: drf
// A host template launches an instantiation it names whole, a builtin type
// first (`interleave<float, 2, 1>`). Each value goes to its own parameter:
// with STRIDE 2 the even and odd halves are two launches apart, and within
// one launch every thread has its own cell.
template <typename T, int STRIDE, int OFFSET>
__global__ void interleave(T *out, const T *in) {
    out[threadIdx.x * STRIDE + OFFSET] = in[threadIdx.x];
}

template <typename T>
void run(T *out, const T *even, const T *odd) {
    interleave<float, 2, 0><<<1, 64>>>(out, even);
    interleave<float, 2, 1><<<1, 64>>>(out, odd);
}

void go(float *out, const float *even, const float *odd) { run(out, even, odd); }
