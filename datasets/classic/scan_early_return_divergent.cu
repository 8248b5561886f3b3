// expect: divergent
// options: --block-dim 256 --grid-dim 16
// Scan with a bounds check written as an early return: threads past the end
// of the input leave before the barriers that the others wait at.

#define N 256

__global__ void scan_early_return(float *out, const float *in, int n) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  int i = blockIdx.x * N + tid;
  if (i >= n)
    return;

  s[tid] = in[i];
  __syncthreads();

  for (int offset = 1; offset < N; offset <<= 1) {
    float left = 0.0f;
    if (tid >= offset)
      left = s[tid - offset];
    __syncthreads();
    if (tid >= offset)
      s[tid] += left;
    __syncthreads();
  }

  out[i] = s[tid];
}
