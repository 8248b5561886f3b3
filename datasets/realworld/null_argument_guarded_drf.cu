// expect: drf
// A helper that takes an optional mask and tests it (`mask == nullptr ? 1 :
// mask[i]`), called by a kernel with `nullptr`: the read the test guards is
// dead code there, and only the live operand is analysed.
__device__ void count(const int *keys, int *counts, int n, const int *mask) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int m = mask == nullptr ? 1 : mask[i];
    atomicAdd(&counts[keys[i]], m);
  }
}

__global__ void count_all(const int *keys, int *counts, int n) {
  count(keys, counts, n, nullptr);
}

__global__ void count_masked(const int *keys, int *counts, int n, const int *mask) {
  count(keys, counts, n, mask);
}

// The same test short-circuited: `mask == nullptr || mask[i]`.
__device__ void count_if(const int *keys, int *counts, int n, const int *mask) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (mask == nullptr || mask[i])
      atomicAdd(&counts[keys[i]], 1);
}

__global__ void count_unmasked(const int *keys, int *counts, int n) {
  count_if(keys, counts, n, nullptr);
}
