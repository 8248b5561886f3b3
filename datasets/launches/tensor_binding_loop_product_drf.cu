// expect: drf
// The same binding over a kernel where each thread writes only its own
// element: safe for every count the sizes may multiply to.
#include <cuda_fp16.h>
#include <torch/extension.h>

__global__ void clear(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.0f;
}

#define CLEAR_BINDING(name)                                                   \
  void name(torch::Tensor t) {                                                \
    const int ndim = t.dim();                                                 \
    int n = 1;                                                                \
    for (int d = 0; d < ndim; ++d) {                                          \
      n *= t.size(d);                                                         \
    }                                                                         \
    dim3 block(256);                                                          \
    dim3 grid((n + 255) / 256);                                               \
    clear<<<grid, block>>>(reinterpret_cast<float *>(t.data_ptr()), n);       \
  }

CLEAR_BINDING(clear_all)
