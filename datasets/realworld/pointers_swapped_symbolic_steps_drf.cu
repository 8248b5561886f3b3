// expect: drf
// known false alarm: which buffer a swapped pointer is in, at the top of an
// iteration of a loop with a run-time count, is an unknown of each thread.
// pointers_swapped_in_loop_drf.cu's shared version over a run-time number of
// steps. Each buffer pointer may be in either array at the top of an
// iteration; drfscan does not yet know that all threads of the block agree
// on which, so it reports possible races.
__global__ void smooth(float *g, int steps) {
  __shared__ float s1[256], s2[256];
  int i = threadIdx.x;
  int base = blockIdx.x * 256;
  if (blockDim.x != 256) return;
  s1[i] = g[base + i];
  __syncthreads();
  float *in = s1, *out = s2;
  for (int t = 0; t < steps; t++) {
    out[i] = 0.5f * (in[i] + in[(i + 1) % 256]);
    __syncthreads();
    float *tmp = in;
    in = out;
    out = tmp;
  }
  g[base + i] = in[i];
}
