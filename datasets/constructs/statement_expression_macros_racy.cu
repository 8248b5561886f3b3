// expect: racy
// As its drf twin, but the row written is the clamped bound itself, which
// every thread of a block shares.
#define clamp_min(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })

__global__ void scale_rows(float *y, const float *x, int n) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  int last = clamp_min(n - 1, 32 * b + 31);
  if (t < n)
    y[last] = x[t];
}

void run(float *y, const float *x, int n) { scale_rows<<<(n + 31) / 32, 32>>>(y, x, n); }
