// expect: racy
// A spectral-element update: each block owns an element of 8x8x8 nodes
// and writes the three components of a vector field, stored as three
// planes `plane` cells apart. The host passes `plane = elements * Np`
// with `Np` read at run time; the kernel's own element size is 512. A
// plane shorter than the grid's 512 * gridDim.x cells makes the planes
// overlap: a race only then, reported as possible with that precondition.
#define NODES 512
__global__ void advect(int elements, int plane, const float *w, float *out) {
  const int e = blockIdx.x;
  const int i = threadIdx.x;
  const int j = threadIdx.y;
  for (int c = 0; c < 8; ++c) {
    if (i < 8 && j < 8) {
      const int id = e * NODES + c * 64 + j * 8 + i;
      const float s = w[id];
      out[id + 0 * plane] = s;
      out[id + 1 * plane] = 2.0f * s;
      out[id + 2 * plane] = 3.0f * s;
    }
  }
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int elements = atoi(argv[2]);
  int np = (n + 1) * (n + 1) * (n + 1);
  float *w, *out;
  advect<<<dim3(elements, 1), dim3(16, 16)>>>(elements, elements * np, w, out);
  return 0;
}
