// expect: drf
// The layout of many benchmark programs: a host function launches the
// kernel with the block size it is given; main calls it for each size of a
// table, once directly (a range `for`) to check the results and once
// through a timing harness that calls it with the arguments after it. The
// tile holds 256 values and every size used is at most 256, so no two
// threads of a block share a cell of it.
#include <utility>

template <class Kernel, class... Args>
float time_kernel(int repeats, Kernel kernel, Args &&...args) {
  for (int i = 0; i < repeats; i++)
    kernel(std::forward<Args>(args)...);
  return 0.0f;
}

__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 256] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < blockDim.x; k++)
      s += tile[k];
    out[blockIdx.x] = s;
  }
}

void block_sums_launch(const float *in, float *out, int n, int block_size) {
  block_sums<<<(n + block_size - 1) / block_size, block_size>>>(in, out, n);
}

int main() {
  const float *in = nullptr;
  float *out = nullptr;
  int n = 1 << 20;
  int block_sizes[] = {32, 64, 128, 256};
  for (int block_size : block_sizes)
    block_sums_launch(in, out, n, block_size);
  for (int j = 0; j < 4; j++) {
    int block_size = block_sizes[j];
    time_kernel(100, block_sums_launch, in, out, n, block_size);
  }
  return 0;
}
