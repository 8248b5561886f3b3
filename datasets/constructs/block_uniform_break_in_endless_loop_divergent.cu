// expect: divergent
// block_uniform_break_in_endless_loop_drf.cu leaving when the thread's own
// element is past the end (`i >= n`): in the block that straddles the end,
// some threads break while the others wait at the barrier.

__global__ void tile_neighbours(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  while (1) {
    if (i >= n)
      break;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    sum += tile[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
    i += blockDim.x * gridDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void neighbours(float *out, const float *in, int n, int blocks) {
  tile_neighbours<<<blocks, 256>>>(out, in, n);
}
