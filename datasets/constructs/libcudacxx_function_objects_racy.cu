// expect: racy
// libcudacxx_function_objects_drf.cu without the barrier between the two
// reductions: the second one writes the temporary storage while slower
// threads may still read the first one's results from it.
#include <cub/cub.cuh>
#include <cuda/cmath>
#include <cuda/std/functional>
#include <cuda/std/limits>

template <int TPB>
__global__ void row_max_plus_sum(const float *in, float *out, int n) {
  typedef cub::BlockReduce<float, TPB> BlockReduce;
  __shared__ typename BlockReduce::TempStorage storage;
  float top = cuda::std::numeric_limits<float>::lowest();
  float sum = 0.0f;
  for (int t = 0; t < cuda::ceil_div(n, TPB); t++) {
    int i = t * TPB + threadIdx.x;
    if (i < n) {
      float v = in[blockIdx.x * n + i];
      top = v > top ? v : top;
      sum += v;
    }
  }
  float m = BlockReduce(storage).Reduce(top, cuda::maximum());
  float s = BlockReduce(storage).Reduce(sum, cuda::std::plus<>());
  if (threadIdx.x == 0) out[blockIdx.x] = m + s;
}

template __global__ void row_max_plus_sum<128>(const float *, float *, int);
