// expect: racy
// template_dependent_operator_drf.cu with the left operand read from the
// neighbour's cell: the operands of an unresolved operator are still
// evaluated, so the read of data[gid + 1] races with the neighbour's write.
struct Fixed { int raw; };
Fixed operator-(Fixed a, Fixed b);

template <class T>
__global__ void subtract_neighbour(T *data, int iters) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T s = data[gid];
  for (int j = 0; j < iters; ++j)
    s = data[gid + 1] - s;
  data[gid] = s;
}

template <class T>
void run(T *data, int blocks, int iters) {
  subtract_neighbour<T><<<blocks, 128>>>(data, iters);
}
