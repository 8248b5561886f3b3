// expect: drf
// options: --block-dim 256
// Thread 0 publishes where the block's window starts; after the barrier
// every thread reads the same start, so the threads' cells of the window
// differ. Nothing writes `start` while it is read.
__global__ void reverse_window(float *out, const float *in, int *starts) {
  __shared__ int start;
  __shared__ float window[512];
  if (threadIdx.x == 0)
    start = starts[blockIdx.x] % 256;
  __syncthreads();
  window[start + threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = window[start + 255 - threadIdx.x];
  if (threadIdx.x == 0)
    starts[blockIdx.x] = 0;
}
