// expect: drf
// A grid-stride pass over tiles written as an endless loop with a break:
// the block leaves when its first element, `i - threadIdx.x`, is past the
// end, the same test for every thread of the block, so the barriers in the
// loop do not diverge. `i` steps by the grid's width once per iteration,
// and in iteration k it is its start plus k strides.

__global__ void tile_neighbours(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  while (1) {
    if (i - (int)threadIdx.x >= n)
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
