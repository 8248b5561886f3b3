// expect: racy
// pointers_swapped_in_loop_drf.cu's shared version without the barrier
// between the steps: a thread overwrites its cell of one buffer while its
// neighbour still reads it. The race is in whichever buffer is being read,
// so both arrays are involved, the first one only from the second step on.
__global__ void smooth(float *g) {
  __shared__ float s1[256], s2[256];
  int i = threadIdx.x;
  int base = blockIdx.x * 256;
  if (blockDim.x != 256) return;
  s1[i] = g[base + i];
  __syncthreads();
  float *in = s1, *out = s2;
  for (int t = 0; t < 8; t++) {
    out[i] = 0.5f * (in[i] + in[(i + 1) % 256]);
    float *tmp = in;
    in = out;
    out = tmp;
  }
  __syncthreads();
  g[base + i] = in[i];
}
