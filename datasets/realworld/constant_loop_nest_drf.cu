// expect: drf
// A small dense matrix product per package of four vectors, with every
// loop bound a compile-time constant (a 7 x 7 x 7 nest): each thread owns
// one lane of its package. Unrolling all of it would make 343 copies of
// the body; the inner loops stay loops and the solver bounds their
// counters.
#define DIM 7
#define LANES 4
#define PACKAGES 64

__global__ void commutator(const float *in, float *out, const float *h) {
  int package = PACKAGES * blockIdx.y + threadIdx.y;
  int base = package * LANES * DIM * DIM;
  for (int i = 0; i < DIM; ++i)
    for (int k = 0; k < DIM; ++k) {
      float hik = h[i * DIM + k];
      for (int j = 0; j < DIM; ++j) {
        float acc = out[base + LANES * (DIM * i + j) + threadIdx.x];
        acc += hik * in[base + LANES * (DIM * k + j) + threadIdx.x];
        out[base + LANES * (DIM * i + j) + threadIdx.x] = acc;
      }
    }
}

void run(const float *in, float *out, const float *h, int packages) {
  commutator<<<dim3(1, packages / PACKAGES), dim3(LANES, PACKAGES)>>>(in, out, h);
}
