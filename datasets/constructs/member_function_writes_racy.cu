// expect: racy
// A member function writes through the object's pointer field: every
// thread's `acc.set(0, …)` stores its own value into one cell. (A tool that
// does not inline member functions sees no access at all.) `put_first`
// reaches the same write through another member function called on the
// object without naming it.
struct Accumulator {
    float *cells;
    __device__ void set(int i, float v) { cells[i] = v; }
    __device__ void put_first(float v) { set(0, v); }
};

__global__ void last_writer(Accumulator acc, const float *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    acc.set(0, in[i]);
}

__global__ void first_writer(Accumulator acc, const float *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    acc.put_first(in[i]);
}
