// expect: drf
// options: --block-dim 128
// Per-warp scratch buffers, as scrypt miners keep them: the host copies
// one device pointer per warp of the grid into a __constant__ table
// (cudaMemcpyToSymbol), and each warp works in its own buffer, lane by
// lane. Buffers of different cells of the table are taken to be apart,
// as pointer parameters are.
#define WARPS_PER_BLOCK 4
__constant__ unsigned int *scratch[4096];

__global__ void fill_scratch(const unsigned int *in, unsigned int *out, int n) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned int *v = scratch[blockIdx.x * WARPS_PER_BLOCK + warp] + lane;
  unsigned int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < n; i++) {
    v[i * 32] = x;
    x = x * 1664525u + 1013904223u;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v[(x % n) * 32];
}
