// expect: drf
// A work-efficient (up-sweep, down-sweep) scan with padding against bank
// conflicts. The element count `n` is a parameter the host passes as one
// constant, twice the block: the halving loop's trip count and the
// doubling `offset` it carries along are then known in every iteration,
// so the two threads of an interval agree on `offset`.
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)
#define THREADS 128

__global__ void prescan(float *out, const float *in, int n) {
  __shared__ float temp[2 * THREADS + (2 * THREADS >> LOG_BANKS)];
  int tid = threadIdx.x;
  int base = blockIdx.x * n;
  int a = tid, b = tid + n / 2;
  temp[a + PAD(a)] = in[base + a];
  temp[b + PAD(b)] = in[base + b];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi + PAD(bi)] += temp[ai + PAD(ai)];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[n - 1 + PAD(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[ai + PAD(ai)];
      temp[ai + PAD(ai)] = temp[bi + PAD(bi)];
      temp[bi + PAD(bi)] += t;
    }
  }
  __syncthreads();
  out[base + a] = temp[a + PAD(a)];
  out[base + b] = temp[b + PAD(b)];
}

int main() {
  float *out, *in;
  prescan<<<64, THREADS>>>(out, in, 2 * THREADS);
  return 0;
}
