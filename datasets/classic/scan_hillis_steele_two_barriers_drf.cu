// expect: drf
// options: --block-dim 256 --grid-dim 16
// In-place Hillis-Steele scan made safe with two barriers per round: all
// reads of a round finish before any write of that round.

#define N 256

__global__ void scan_hillis_steele_two_barriers(float *out, const float *in) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  int base = blockIdx.x * N;

  s[tid] = in[base + tid];
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

  out[base + tid] = s[tid];
}
