// expect: drf
// options: --block-dim 128 --grid-dim 64
// typedef'd element and index types.

typedef float real;
typedef unsigned int uint;
typedef real *real_ptr;

__global__ void scale_typed(real_ptr out, const real *in, real k, uint n) {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = k * in[i];
}
