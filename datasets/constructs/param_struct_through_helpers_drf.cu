// expect: drf
// A parameter structure whose nested structure holds the buffers, handed
// to helpers by reference, by value and through a reference bound to its
// nested part: every helper reaches the same arrays the kernel names.

struct Buffers {
  const float *in;
  float *out;
};

struct Args {
  int n;
  Buffers buf;
};

__device__ void scale_into(const Args &a, int i, float s) {
  a.buf.out[i] = a.buf.in[i] * s;
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
