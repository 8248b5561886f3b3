// expect: drf
// A lock made of a libcu++ `cuda::std::atomic_flag`: the first thread of each
// block spins on `test_and_set` with acquire order, adds its block's sum to
// a device-wide total, and clears the flag with release order. The orders
// make the critical section's accesses happen while the lock is held.
#include <cuda/atomic>
#define THREADS 128

__device__ cuda::std::atomic_flag lock;

__global__ void accumulate(const float *in, float *total) {
  __shared__ float partial[THREADS];
  partial[threadIdx.x] = in[blockIdx.x * THREADS + threadIdx.x];
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    while (lock.test_and_set(cuda::memory_order_acquire)) {
    }
    total[0] += partial[0];
    lock.clear(cuda::memory_order_release);
  }
}

int main() {
  float *in, *total;
  accumulate<<<512, THREADS>>>(in, total);
  return 0;
}
