// expect: drf
// Some editors format a launch as `k << <grid, block >> > (…)`, which nvcc
// accepts. The launch still fixes the block: the tile holds one 128-thread
// block's values.
#define THREADS 128

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ float tile[THREADS];
  int base = blockIdx.x * THREADS;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[THREADS - 1 - threadIdx.x];
}

void reverse(const float *in, float *out, int blocks) {
  reverse_tiles << <blocks, THREADS >> > (in, out);
}
