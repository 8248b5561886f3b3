// expect: racy
// struct_param_nested_fields_drf.cu with the thread's index taken within
// its block only: every block writes the same first elements.
struct View {
  float *data;
  int length;
};
struct Params {
  View in;
  View out;
};

__global__ void copy_views(Params p) {
  int i = threadIdx.x;
  if (i < p.out.length && i < p.in.length)
    p.out.data[i] = 2.0f * p.in.data[blockIdx.x * blockDim.x + i];
}
