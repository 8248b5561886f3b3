// expect: drf
// options: --block-dim 256 --grid-dim 16
// __syncthreads_count and __syncthreads_or are barriers too: they separate
// each thread's store from the reads of other threads' cells.

__global__ void vote(const int *in, int *out, int *counts) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int g = blockIdx.x * 256 + t;
  s[t] = in[g];
  int positives = __syncthreads_count(s[t] > 0);
  int any_negative = __syncthreads_or(s[t] < 0);
  out[g] = any_negative ? s[255 - t] : s[t];
  if (t == 0)
    counts[blockIdx.x] = positives;
}
