// expect: drf
// A view object passed by value whose member functions read and write
// through its pointer field: each thread stores its own cell (`set` calls
// `at`, and `this->` names the same object), then reads a neighbour's
// cell of the other buffer.
struct View {
    float *data;
    int stride;
    __device__ int at(int i) const { return i * stride; }
    __device__ void set(int i, float v) { data[at(i)] = v; }
    __device__ float get(int i) const { return this->data[at(i)]; }
};

__global__ void copy_view(View in, View out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in.stride == 1 && out.stride == 1) {
        out.set(i, in.get(i) * 2.0f);
    }
}
