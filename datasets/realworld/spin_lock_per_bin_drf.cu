// expect: drf
// A weighted histogram in double precision on hardware without a double
// atomicAdd: each bin has its own spin lock, taken around the bin's
// update (`while (atomicCAS(&locks[bin], 0, 1) != 0);` and a fence, then a
// fence and `atomicExch(&locks[bin], 0)`). Two threads on one bin hold one
// lock; the update is ordered.

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
    acquire(&locks[bin]);
    bins[bin] += weights[i];
    release(&locks[bin]);
  }
}

void histogram(double *bins, int *locks, const int *keys, const double *w,
               int n) {
  weighted_histogram<<<(n + 255) / 256, 256>>>(bins, locks, keys, w, n);
}
