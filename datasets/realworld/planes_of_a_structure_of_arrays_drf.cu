// expect: drf
// planes_of_a_structure_of_arrays_racy.cu with the planes sized from the
// kernel's own element size, as the precondition drfscan suggests asks.
#define NODES 512
__global__ void advect(int elements, int plane, const float *w, float *out) {
  __requires(plane >= elements * NODES);
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
