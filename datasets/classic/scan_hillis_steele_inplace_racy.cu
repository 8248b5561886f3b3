// expect: racy
// options: --block-dim 256 --grid-dim 16
// Hillis-Steele scan done in place with one barrier per round: thread t reads
// s[t - offset] in the same interval in which thread t - offset updates it.

#define N 256

__global__ void scan_hillis_steele_inplace(float *out, const float *in) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  int base = blockIdx.x * N;

  s[tid] = in[base + tid];
  __syncthreads();

  for (int offset = 1; offset < N; offset <<= 1) {
    if (tid >= offset)
      s[tid] += s[tid - offset];
    __syncthreads();
  }

  out[base + tid] = s[tid];
}
