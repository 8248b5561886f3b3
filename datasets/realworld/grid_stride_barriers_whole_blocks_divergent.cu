// expect: divergent
// grid_stride_barriers_whole_blocks_drf.cu without its `__requires`: when
// `n` ends inside a block, the threads past it leave the loop a trip
// early and skip the barriers the others wait at. The report suggests
// `n % blockDim.x == 0`.
#define THREADS 128
__global__ void shift_in_blocks(const float *in, float *out, unsigned n) {
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
