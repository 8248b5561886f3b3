// expect: racy
// warp_slots_after_the_largest_block_drf.cu with the buffer sized for
// blocks of 512 threads: in a block of more than 512, the threads past
// 512 write their values over the warp sums. The race is possible, with
// `__requires(blockDim.x <= 512)`.
__global__ void scale_by_warp_sums(float *x, int n) {
  __shared__ float buf[512 + 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  buf[threadIdx.x] = v;
  float s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (threadIdx.x % 32 == 0)
    buf[512 + threadIdx.x / 32] = s;
  __syncthreads();
  if (i < n)
    x[i] = buf[threadIdx.x] / buf[512 + threadIdx.x / 32];
}
