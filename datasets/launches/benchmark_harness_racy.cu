// expect: racy
// As `benchmark_harness_drf.cu`, but the timing loop also tries 512
// threads: through the harness, block_sums runs with blocks wider than
// its tile, where threads t and t + 256 write the same cell.
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
  int timed_sizes[] = {128, 256, 512};
  for (int j = 0; j < 3; j++) {
    int block_size = timed_sizes[j];
    time_kernel(100, block_sums_launch, in, out, n, block_size);
  }
  return 0;
}
