// expect: drf
// options: --block-dim 256 --grid-dim 16
// A struct passed by value that carries the array pointers and the length.

struct Buffers {
  const float *in;
  float *out;
  int n;
};

__global__ void copy_through_struct(Buffers b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.out[i] = b.in[i];
}
