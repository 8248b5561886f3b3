// expect: racy
// counter_kept_by_a_method_drf.cu with rows one cell apart: once a thread's
// count reaches 1 it writes the next thread's first cell. The count changes
// only inside the member function, so the loop must take it as changed.
struct Counter {
    int n;
    __device__ Counter(int start) : n(start) {}
    __device__ void next() { n++; }
};

__global__ void compact(const float *in, float *out, int len, int k)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    Counter c(0);
    for (int i = 0; i < len; ++i) {
        if (in[q * len + i] > 0.0f) {
            if (c.n >= 0 && c.n < k)
                out[q + c.n] = in[q * len + i];
            c.next();
        }
    }
}
