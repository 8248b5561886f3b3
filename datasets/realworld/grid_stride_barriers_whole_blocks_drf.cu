// expect: drf
// A grid-stride loop with barriers inside, over a size the kernel
// requires to be whole blocks: every thread of a block makes the same
// number of trips whatever the grid, which the host sizes at run time
// (from the device's multiprocessor count, say).
#define THREADS 128
__global__ void shift_in_blocks(const float *in, float *out, unsigned n) {
  __requires(n % THREADS == 0);
  __shared__ float tile[THREADS];
  unsigned t = threadIdx.x;
  for (unsigned i = t + THREADS * blockIdx.x; i < n; i += THREADS * gridDim.x) {
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[(t + 1) % THREADS];
    __syncthreads();
  }
}

void shift(const float *in, float *out, unsigned n, int blocks) {
  shift_in_blocks<<<blocks, THREADS>>>(in, out, n);
}
