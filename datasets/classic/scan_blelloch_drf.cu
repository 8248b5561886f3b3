// expect: drf
// options: --block-dim 128 --grid-dim 16
// Work-efficient (Blelloch) exclusive scan of 256 elements with 128 threads:
// an up-sweep building partial sums in place, the root cleared, and a
// down-sweep. In each round thread t touches cells off*(2t+1)-1 and
// off*(2t+2)-1 only.

#define N 256

__global__ void scan_blelloch(float *out, const float *in) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  int base = blockIdx.x * N;

  s[2 * tid] = in[base + 2 * tid];
  s[2 * tid + 1] = in[base + 2 * tid + 1];

  for (int off = 1; off < N; off *= 2) {
    __syncthreads();
    int ai = off * (2 * tid + 1) - 1;
    int bi = off * (2 * tid + 2) - 1;
    if (bi < N)
      s[bi] += s[ai];
  }

  if (tid == 0)
    s[N - 1] = 0.0f;

  for (int off = N / 2; off > 0; off /= 2) {
    __syncthreads();
    int ai = off * (2 * tid + 1) - 1;
    int bi = off * (2 * tid + 2) - 1;
    if (bi < N) {
      float t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  __syncthreads();

  out[base + 2 * tid] = s[2 * tid];
  out[base + 2 * tid + 1] = s[2 * tid + 1];
}
