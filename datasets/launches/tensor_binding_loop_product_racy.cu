// expect: racy
// A PyTorch-style binding a macro writes: the element count starts at 1
// and is multiplied by each of the tensor's sizes. Without the framework's
// headers clang cannot type `t.size(d)`, and with `cuda_fp16.h` in scope
// (it declares `operator*=` overloads) the product `n *= t.size(d)` is
// left an unresolved operator call rather than a compound assignment. It
// still changes `n`: each thread copies its element onto the next
// thread's, so any count above one races, which reading the count as its
// starting 1 would hide.
#include <cuda_fp16.h>
#include <torch/extension.h>

__global__ void shift_up(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i + 1] = a[i];
}

#define SHIFT_BINDING(name)                                                   \
  void name(torch::Tensor t) {                                                \
    const int ndim = t.dim();                                                 \
    int n = 1;                                                                \
    for (int d = 0; d < ndim; ++d) {                                          \
      n *= t.size(d);                                                         \
    }                                                                         \
    dim3 block(256);                                                          \
    dim3 grid((n + 255) / 256);                                               \
    shift_up<<<grid, block>>>(reinterpret_cast<float *>(t.data_ptr()), n);    \
  }

SHIFT_BINDING(shift_all)
