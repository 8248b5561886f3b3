// expect: racy
// Rates of a chemistry step in the structure-of-arrays layout of
// combustion codes: field `f` of grid point `p` lives at `(f - 1) * points
// + p`, where `points` is every thread of the launch, so each thread owns
// one cell of each plane. 64 fields, one unrolled store each, under a
// launch of 128-thread blocks. One more store, to the last plane but
// one cell along, is the next thread's cell of field 64.
#define POINTS (blockDim.x * gridDim.x)
#define POINT (blockIdx.x * blockDim.x + threadIdx.x)
#define FIELD(a, f) a[((f) - 1) * POINTS + POINT]
#define RATE1(f) FIELD(rate, f) = k * (f);
#define RATE4(f) RATE1(f) RATE1(f + 1) RATE1(f + 2) RATE1(f + 3)
#define RATE16(f) RATE4(f) RATE4(f + 4) RATE4(f + 8) RATE4(f + 12)
#define RATE64(f) RATE16(f) RATE16(f + 16) RATE16(f + 32) RATE16(f + 48)

__global__ void rates(const float *temperature, float *rate) {
  const float k = 1.0f / temperature[POINT];
  RATE64(1)
  rate[63 * POINTS + POINT + 1] = k;
}

void step(const float *t, float *r, int points) {
  rates<<<points / 128, 128>>>(t, r);
}
