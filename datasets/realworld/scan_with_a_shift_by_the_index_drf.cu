// expect: drf
// A work-efficient block scan that pads its shared array against bank
// conflicts with a macro whose precedence is off: `n >> LOG_BANKS + n >>
// 2 * LOG_BANKS` shifts `n` by `LOG_BANKS + n`, more bits than `n` has, so
// the padding is always 0 (on the GPU, a shift past the width gives 0).
// The scan itself is correct: each level's pairs are disjoint.
#define THREADS 256
#define LOG_BANKS 4
#define PAD(n) ((n) >> LOG_BANKS + (n) >> (2 * LOG_BANKS))

__global__ void block_scan(unsigned int *data, unsigned int *sums, unsigned int n) {
  __shared__ unsigned int s[2 * THREADS + 2 * THREADS / 16];
  unsigned int t = threadIdx.x;
  unsigned int g = blockIdx.x * 2 * THREADS + t;
  unsigned int a = t + PAD(t);
  unsigned int b = t + THREADS + PAD(t + THREADS);
  s[a] = g < n ? data[g] : 0;
  s[b] = g + THREADS < n ? data[g + THREADS] : 0;
  unsigned int stride = 1;
  for (unsigned int d = THREADS; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      unsigned int ai = 2 * stride * t + stride - 1;
      unsigned int bi = ai + stride;
      s[bi + PAD(bi)] += s[ai + PAD(ai)];
    }
    stride *= 2;
  }
  if (t == 0) {
    unsigned int last = 2 * THREADS - 1;
    sums[blockIdx.x] = s[last + PAD(last)];
    s[last + PAD(last)] = 0;
  }
  for (unsigned int d = 1; d <= THREADS; d *= 2) {
    stride >>= 1;
    __syncthreads();
    if (t < d) {
      unsigned int ai = 2 * stride * t + stride - 1;
      unsigned int bi = ai + stride;
      unsigned int x = s[ai + PAD(ai)];
      s[ai + PAD(ai)] = s[bi + PAD(bi)];
      s[bi + PAD(bi)] += x;
    }
  }
  __syncthreads();
  if (g < n) data[g] = s[a];
  if (g + THREADS < n) data[g + THREADS] = s[b];
}

void run(unsigned int *data, unsigned int *sums, unsigned int n) {
  block_scan<<<(n + 2 * THREADS - 1) / (2 * THREADS), THREADS>>>(data, sums, n);
}
