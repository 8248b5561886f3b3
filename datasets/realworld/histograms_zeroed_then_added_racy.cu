// expect: racy
// Parboil's pair-count histograms (tpacf, the base version) reduced: every
// thread zeroes part of a block's shared histograms and then adds to them
// with atomics, with no barrier between; another thread's zeroing may
// come after an add. The race is real for any size with work to do. No
// precondition removes it: `sets * 4 <= elements && elements * 4 <= sets`
// does, by leaving no elements, so no atomic add runs at all, and is not
// suggested.
#define BINS 20
#define HISTS 8
__constant__ float binb[BINS + 1];
__global__ void pair_histograms(const float *xs, int sets, int elements, unsigned *out) {
  unsigned tid = threadIdx.x;
  bool self = blockIdx.x < sets + 1;
  __shared__ unsigned hist[BINS][HISTS];
  for (unsigned w = 0; w < BINS * HISTS; w += 256)
    if (w + tid < BINS * HISTS) hist[(w + tid) / HISTS][(w + tid) % HISTS] = 0;
  const float *data = self ? xs + elements * blockIdx.x : xs;
  const float *random = xs + elements * (self ? blockIdx.x : blockIdx.x - sets);
  for (unsigned j = 0; j < elements; j += 256) {
    float r = tid + j < elements ? random[tid + j] : 0;
    for (unsigned k = 0; k < elements && (self ? k < j + 256 : 1); k++) {
      float d = data[k] * r;
      unsigned lo = 0, hi = BINS;
      while (hi > lo + 1) { unsigned m = (lo + hi) / 2; if (d >= binb[m]) hi = m; else lo = m; }
      if (d < binb[lo] && d >= binb[hi] && (!self || tid + j > k) && tid + j < elements)
        atomicAdd(&hist[hi - 1][tid / 4], 1u);
    }
  }
  __syncthreads();
  for (unsigned w = tid; w < BINS; w += 256) out[blockIdx.x * BINS + w] = hist[w][0];
}
void run(const float *xs, int sets, int elements, unsigned *out) {
  pair_histograms<<<sets * 2 + 1, 256>>>(xs, sets, elements, out);
}
