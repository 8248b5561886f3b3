// expect: drf
// options: --block-dim 128 --grid-dim 8
// A while loop with a block stride clears a 1024-element shared buffer,
// then each thread reads back cells it did not write.

__global__ void clear_then_read(float *out) {
  __shared__ float buf[1024];
  int j = threadIdx.x;
  while (j < 1024) {
    buf[j] = 0.0f;
    j += blockDim.x;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[1023 - threadIdx.x];
}
