// expect: drf
// A block-wide flag kept in a `__shared__ bool`, set by thread 0 before a
// barrier and tested as a plain truth value (`if (busy)`): every thread of
// the block reads the same flag, so the barrier inside the branch is reached
// by all of them or none.

__global__ void compact_busy_rows(const int *counts, float *rows, float *sums, int width) {
  __shared__ bool busy;
  __shared__ float partial[256];
  int t = threadIdx.x;
  if (t == 0) busy = counts[blockIdx.x] > 0;
  __syncthreads();
  if (busy) {
    partial[t] = t < width ? rows[blockIdx.x * width + t] : 0.0f;
    __syncthreads();
    if (t == 0) {
      float s = 0.0f;
      for (int i = 0; i < 256; i++) s += partial[i];
      sums[blockIdx.x] = s;
    }
  }
}

void launch(const int *counts, float *rows, float *sums, int nrows, int width) {
  compact_busy_rows<<<nrows, 256>>>(counts, rows, sums, width);
}
