// expect: drf
// histograms_zeroed_then_added_racy.cu with the barrier after the zeroing.
#define BINS 20
#define HISTS 8
__constant__ float binb[BINS + 1];
__global__ void pair_histograms(const float *xs, int sets, int elements, unsigned *out) {
  unsigned tid = threadIdx.x;
  bool self = blockIdx.x < sets + 1;
  __shared__ unsigned hist[BINS][HISTS];
  for (unsigned w = 0; w < BINS * HISTS; w += 256)
    if (w + tid < BINS * HISTS) hist[(w + tid) / HISTS][(w + tid) % HISTS] = 0;
  __syncthreads();
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
