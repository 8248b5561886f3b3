// expect: drf
// A kernel template launched only from a host template, so it is analysed
// uninstantiated: with an `operator-` in scope, `v - s` on operands of type
// T is an unresolved operator call, not a call through a pointer.
struct Fixed { int raw; };
Fixed operator-(Fixed a, Fixed b);

template <class T>
__global__ void subtract_repeatedly(T *data, int iters, T v) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T s = data[gid];
  for (int j = 0; j < iters; ++j)
    s = v - s;
  data[gid] = s;
}

template <class T>
void run(T *data, int blocks, int iters, T v) {
  subtract_repeatedly<T><<<blocks, 128>>>(data, iters, v);
}
