// expect: racy
// warp_slots_after_a_2d_block_drf.cu with the warp cells placed after 512
// values: a block of more than 512 threads in all (108 x 5, say) writes
// its last threads' values over them.
__global__ void normalise_tile(float *x) {
  __shared__ float buf[1024 + 32];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int g = blockIdx.x * 1024 + t;
  float v = x[g];
  buf[t] = v;
  float m = v;
  for (int o = 16; o > 0; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (t % 32 == 0)
    buf[512 + t / 32] = m;
  __syncthreads();
  x[g] = buf[t] / buf[512 + t / 32];
}
