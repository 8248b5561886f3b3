// expect: drf
// A kernel template calls a function object whose type a host template
// passes on, so no instantiation in the file fixes it. Every function
// object type of the program with a call operator of one parameter holds
// only numbers, so the call writes nothing: each thread writes its own
// cell.
struct Scale {
  float k;
  __host__ __device__ float operator()(float v) const { return k * v; }
};

struct Clamp {
  float lo, hi;
  __host__ __device__ float operator()(float v) const { return v < lo ? lo : (v > hi ? hi : v); }
};

template <typename Op>
__global__ void apply(float *out, const float *in, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}

template <typename Op>
void run(float *out, const float *in, int n, Op op) {
  apply<<<(n + 255) / 256, 256>>>(out, in, n, op);
}

void run_all(float *out, const float *in, int n) {
  run(out, in, n, Scale{2.0f});
  run(out, in, n, Clamp{0.0f, 1.0f});
}
