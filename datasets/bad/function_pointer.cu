// expect: unsupported
// options: --block-dim 128 --grid-dim 8
// A call through a device function pointer: which accesses it makes is not
// known statically.

typedef void (*store_fn)(float *, int);

__device__ void store_zero(float *a, int i) { a[i] = 0.0f; }
__device__ void store_one(float *a, int i) { a[i + 1] = 1.0f; }

__global__ void apply(float *a, int which) {
  store_fn f = which ? store_zero : store_one;
  f(a, blockIdx.x * blockDim.x + threadIdx.x);
}
