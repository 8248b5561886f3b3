// expect: drf
// options: --block-dim 128 --grid-dim 8
// Dynamically sized shared memory (extern __shared__): reverse each block's
// segment in place.

__global__ void reverse_segments(float *data) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;

  buf[t] = data[g];
  __syncthreads();
  data[g] = buf[blockDim.x - 1 - t];
}
