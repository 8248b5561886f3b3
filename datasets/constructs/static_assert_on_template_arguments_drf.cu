// expect: drf
// A template kernel no code instantiates: its tile is whatever the
// arguments will be, but the kernel's own static_assert says every tile
// holds at least a block of 64 threads. So the two halves each thread
// fills never meet.
template <int TILE>
__global__ void __launch_bounds__(64) two_halves(float *out, const float *in) {
  static_assert(TILE >= 64, "a tile covers the whole block");
  __shared__ float s[2 * TILE];
  int i = blockIdx.x * 2 * TILE + threadIdx.x;
  s[threadIdx.x] = in[i];
  s[threadIdx.x + TILE] = -in[i];
  __syncthreads();
  out[i] = s[2 * TILE - 1 - threadIdx.x] + s[threadIdx.x];
}
