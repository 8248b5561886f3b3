// expect: racy
// null_argument_guarded_drf.cu counting with a plain increment where no
// mask is given: two threads with one key update its counter at once.
__device__ void count(const int *keys, int *counts, int n, const int *mask) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (mask == nullptr)
      counts[keys[i]] += 1;
    else
      atomicAdd(&counts[keys[i]], mask[i]);
  }
}

__global__ void count_all(const int *keys, int *counts, int n) {
  count(keys, counts, n, nullptr);
}
