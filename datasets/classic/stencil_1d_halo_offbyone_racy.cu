// expect: racy
// options: --block-dim 128 --grid-dim 8
// Mutant of stencil_1d_drf.cu with an off-by-one right halo: thread 0 stores
// its halo value at s[BLOCK + RADIUS - 1], the interior cell of thread 127,
// which stores a different input cell there.

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d_halo_offbyone(const float *in, float *out) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;

  s[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS) {
    s[l - RADIUS] = in[g];
    s[l + BLOCK - 1] = in[g + RADIUS + BLOCK];
  }
  __syncthreads();

  float r = 0.0f;
  for (int o = -RADIUS; o <= RADIUS; o++)
    r += s[l + o];
  out[g] = r;
}
