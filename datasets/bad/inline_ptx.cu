// expect: unsupported
// options: --block-dim 128 --grid-dim 8
// Inline PTX that waits at a named barrier of 64 threads: the order it
// makes between the threads that reach it is not modelled.

__global__ void ptx_named_barrier(float *a, float v) {
  float *p = a + blockIdx.x * blockDim.x + threadIdx.x;
  *p = v;
  asm volatile("bar.sync 1, 64;" ::: "memory");
  a[blockIdx.x * blockDim.x + (threadIdx.x + 1) % 64] += v;
}
