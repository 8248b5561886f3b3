// expect: racy
// As `spaced_launch_brackets_drf.cu`, but launched with twice the threads
// the tile holds: the upper half of the block overwrites the lower half's
// cells of `out` in the next block's range.
#define THREADS 128

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ float tile[THREADS];
  int base = blockIdx.x * THREADS;
  tile[threadIdx.x % THREADS] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[THREADS - 1 - threadIdx.x % THREADS];
}

void reverse(const float *in, float *out, int blocks) {
  reverse_tiles << <blocks, 2 * THREADS >> > (in, out);
}
