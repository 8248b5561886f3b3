// expect: drf
// Buffers handed over inside a struct passed by value, one level down
// (a launch-parameter block with an input and an output view): each
// thread writes its own element of the output.
struct View {
  float *data;
  int length;
};
struct Params {
  View in;
  View out;
};

__global__ void copy_views(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.out.length && i < p.in.length)
    p.out.data[i] = 2.0f * p.in.data[i];
}
