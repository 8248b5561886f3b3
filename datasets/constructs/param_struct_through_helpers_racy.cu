// expect: racy
// param_struct_through_helpers_drf.cu whose helper taking the structure by
// reference stores at the thread's index halved: two threads share a cell
// of the output the kernel also writes directly.

struct Buffers {
  const float *in;
  float *out;
};

struct Args {
  int n;
  Buffers buf;
};

__device__ void scale_into(const Args &a, int i, float s) {
  a.buf.out[i / 2] = a.buf.in[i] * s;
}

__device__ float twice(Args a, int i) { return 2.0f * a.buf.in[i]; }

__global__ void scale_through_helpers(Args args, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= args.n)
    return;
  scale_into(args, i, s);
  Buffers &b = args.buf;
  b.out[i] += twice(args, i);
}
