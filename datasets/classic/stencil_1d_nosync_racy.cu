// expect: racy
// options: --block-dim 128 --grid-dim 8
// Mutant of stencil_1d_drf.cu without the barrier: a thread reads its
// neighbours' cells while they are being loaded.

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d_nosync(const float *in, float *out) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;

  s[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS) {
    s[l - RADIUS] = in[g];
    s[l + BLOCK] = in[g + RADIUS + BLOCK];
  }

  float r = 0.0f;
  for (int o = -RADIUS; o <= RADIUS; o++)
    r += s[l + o];
  out[g] = r;
}
