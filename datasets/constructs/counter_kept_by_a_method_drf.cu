// expect: drf
// A per-thread count kept in an object and advanced by a member function
// inside the loop: the count is some value of an earlier iteration, and
// the kernel checks it against its own row before each store.
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
                out[q * k + c.n] = in[q * len + i];
            c.next();
        }
    }
}
