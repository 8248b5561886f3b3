// expect: racy
// As its drf twin, but every thread stores its result in the first cell:
// the results differ from thread to thread.
struct Scale {
  float k;
  __host__ __device__ float operator()(float v) const { return k * v; }
};

template <typename Op>
__global__ void apply(float *out, const float *in, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[0] = op(in[i]);
}

template <typename Op>
void run(float *out, const float *in, int n, Op op) {
  apply<<<(n + 255) / 256, 256>>>(out, in, n, op);
}

void run_all(float *out, const float *in, int n) { run(out, in, n, Scale{2.0f}); }
