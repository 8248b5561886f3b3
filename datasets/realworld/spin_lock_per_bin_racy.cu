// expect: racy
// spin_lock_per_bin_drf.cu taking the lock of the thread's lane
// (`locks[threadIdx.x % 32]`) instead of the bin's: two threads of
// different lanes updating one bin hold different locks.

__device__ void acquire(int *m) {
  while (atomicCAS(m, 0, 1) != 0)
    ;
  __threadfence();
}

__device__ void release(int *m) {
  __threadfence();
  atomicExch(m, 0);
}

__global__ void weighted_histogram(double *bins, int *locks, const int *keys,
                                   const double *weights, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = keys[i];
    acquire(&locks[threadIdx.x % 32]);
    bins[bin] += weights[i];
    release(&locks[threadIdx.x % 32]);
  }
}

void histogram(double *bins, int *locks, const int *keys, const double *w,
               int n) {
  weighted_histogram<<<(n + 255) / 256, 256>>>(bins, locks, keys, w, n);
}
