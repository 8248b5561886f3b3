// expect: drf
// One thread per block adds the block's sum to a global total inside a
// critical section guarded by a lock object (the pattern of "CUDA by
// Example", appendix A).
struct Lock {
    int *mutex;
    __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0); __threadfence(); }
    __device__ void unlock() { __threadfence(); atomicExch(mutex, 0); }
};

__global__ void block_sums(Lock lock, const float *in, float *total) {
    __shared__ float cache[256];
    int t = threadIdx.x;
    cache[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s) cache[t] += cache[t + s];
        __syncthreads();
    }
    if (t == 0) {
        lock.lock();
        *total += cache[0];
        lock.unlock();
    }
}

void run(Lock lock, const float *in, float *total, int blocks) {
    block_sums<<<blocks, 256>>>(lock, in, total);
}
