// expect: racy
// options: --block-dim 128
// scratch_buffers_from_a_constant_table_drf.cu with the table indexed by
// the warp within its block only: warp 0 of every block takes cell 0, so
// two blocks fill one buffer.
__constant__ unsigned int *scratch[4096];

__global__ void fill_scratch(const unsigned int *in, unsigned int *out, int n) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned int *v = scratch[warp] + lane;
  unsigned int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < n; i++) {
    v[i * 32] = x;
    x = x * 1664525u + 1013904223u;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v[(x % n) * 32];
}
