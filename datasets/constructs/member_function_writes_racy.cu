// expect: racy
// A member function writes through the object's pointer field: every
// thread's `acc.set(0, …)` stores its own value into one cell. (A tool that
// does not inline member functions sees no access at all.)
struct Accumulator {
    float *cells;
    __device__ void set(int i, float v) { cells[i] = v; }
};

__global__ void last_writer(Accumulator acc, const float *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    acc.set(0, in[i]);
}
