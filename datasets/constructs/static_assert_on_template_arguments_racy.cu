// expect: racy
// A template kernel no code instantiates, whose static_assert lets a
// tile be half the block: thread 32 fills the slot thread 0 fills as its
// second half when TILE is 32.
template <int TILE>
__global__ void __launch_bounds__(64) two_halves(float *out, const float *in) {
  static_assert(TILE >= 32, "a tile covers one warp");
  __shared__ float s[2 * TILE];
  int i = blockIdx.x * 2 * TILE + threadIdx.x;
  s[threadIdx.x] = in[i];
  s[threadIdx.x + TILE] = -in[i];
  __syncthreads();
  out[i] = s[2 * TILE - 1 - threadIdx.x] + s[threadIdx.x];
}
