// expect: racy
// The lock is released before the update it should guard: the first
// thread of every block adds to `*total` unprotected.
struct Lock {
    int *mutex;
    __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0); __threadfence(); }
    __device__ void unlock() { __threadfence(); atomicExch(mutex, 0); }
};

__global__ void block_sums_early_unlock(Lock lock, const float *in, float *total) {
    if (threadIdx.x == 0) {
        lock.lock();
        lock.unlock();
        *total += in[blockIdx.x];
    }
}
