// expect: racy
// shift_by_a_log_size_drf.cu with the blocks placed half a vector apart
// (`blockIdx.x << (log2N - 1)`): each block's second half is the next
// block's first.
__global__ void copy_batch(float *out, const float *in, int log2N) {
  const int N = 1 << log2N;
  const int base = blockIdx.x << (log2N - 1);
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) {
    out[base + pos] = 2.0f * in[base + pos];
  }
}

void run(float *out, const float *in, int log2N, int batches) {
  copy_batch<<<batches, 256>>>(out, in, log2N);
}
