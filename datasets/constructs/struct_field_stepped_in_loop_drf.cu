// expect: drf
// A cursor structure whose field steps by the whole grid once per
// iteration: after the loop it is the thread's start plus `rounds` strides,
// one cell per thread of the grid.
struct Cursor {
  int index;
  int round;
};

__global__ void last_round(float *out, const float *in, int rounds) {
  Cursor at;
  at.index = blockIdx.x * blockDim.x + threadIdx.x;
  at.round = 0;
  for (int r = 0; r < rounds; ++r) {
    at.index += gridDim.x * blockDim.x;
    at.round++;
  }
  out[at.index] = in[at.index] * at.round;
}
