// expect: racy
// A histogram written with libcu++'s atomics, as code moving off the
// runtime's `atomicAdd` writes it: each thread counts its value in a
// block-shared bin through `cuda::atomic_ref`, the block's bins are merged
// into global ones the same way after a barrier, and a device-wide
// `cuda::atomic` counts the values seen. One update is not atomic: the
// merge adds to the global bin with a plain `+=`, which races with the
// other blocks' merges.
#include <cuda/atomic>
#define BINS 64
#define THREADS 256

__device__ cuda::atomic<unsigned int, cuda::thread_scope_device> seen;

__global__ void histogram(const unsigned int *values, unsigned int *bins, int n) {
  __shared__ unsigned int local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) {
    cuda::atomic_ref<unsigned int, cuda::thread_scope_block> bin(local[values[i] % BINS]);
    bin.fetch_add(1u, cuda::memory_order_relaxed);
    seen++;
  }
  __syncthreads();
  if (threadIdx.x < BINS) {
    bins[threadIdx.x] += local[threadIdx.x];
  }
}

int main() {
  unsigned int *values, *bins;
  histogram<<<1024, THREADS>>>(values, bins, 1024 * THREADS);
  return 0;
}
