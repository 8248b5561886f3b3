// expect: drf
// A library kernel over a two-dimensional block of any shape, with its
// threads numbered row by row: each stages its value in a shared buffer
// sized for 1024 threads, the most a block has whatever its shape, and
// each warp keeps its maximum in the 32 cells after it. Only a block of
// more than 1024 threads in all (64 x 17, say) would reach the warp cells.
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
    buf[1024 + t / 32] = m;
  __syncthreads();
  x[g] = buf[t] / buf[1024 + t / 32];
}
