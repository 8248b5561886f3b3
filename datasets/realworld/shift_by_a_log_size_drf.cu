// expect: drf
// A batched transform in the shape of a fast Walsh transform: each block
// takes one vector of N = 1 << log2N elements at `blockIdx.x << log2N`.
// The shift by a parameter is defined only for 0 <= log2N < 32, so the
// blocks' vectors never meet.
__global__ void copy_batch(float *out, const float *in, int log2N) {
  const int N = 1 << log2N;
  const int base = blockIdx.x << log2N;
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) {
    out[base + pos] = 2.0f * in[base + pos];
  }
}

void run(float *out, const float *in, int log2N, int batches) {
  copy_batch<<<batches, 256>>>(out, in, log2N);
}
