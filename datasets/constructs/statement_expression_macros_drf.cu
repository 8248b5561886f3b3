// expect: drf
// GNU statement expressions, the form of min and max macros that evaluate
// their arguments once (as generated polyhedral code writes them): each
// thread of a tile writes its own cell below the clamped bound.
#define clamp_min(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })

__global__ void scale_rows(float *y, const float *x, int n) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  for (int c = 0; c <= clamp_min(n - 1, 32 * b + 31); c += 32) {
    if (c + t < n)
      y[32 * b + t] += x[c + t];
    __syncthreads();
  }
}

void run(float *y, const float *x, int n) { scale_rows<<<(n + 31) / 32, 32>>>(y, x, n); }
