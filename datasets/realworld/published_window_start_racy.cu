// expect: racy
// options: --block-dim 256
// published_window_start_drf.cu without the barrier after publishing:
// threads read `start` while thread 0 may still be writing it.
__global__ void reverse_window(float *out, const float *in, int *starts) {
  __shared__ int start;
  __shared__ float window[512];
  if (threadIdx.x == 0)
    start = starts[blockIdx.x] % 256;
  window[start + threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = window[start + 255 - threadIdx.x];
  if (threadIdx.x == 0)
    starts[blockIdx.x] = 0;
}
