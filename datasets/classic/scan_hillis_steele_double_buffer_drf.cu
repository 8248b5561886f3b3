// expect: drf
// options: --block-dim 256 --grid-dim 16
// Inclusive Hillis-Steele scan of 256 elements per block with a double
// buffer: every round reads buffer `pin` and writes buffer `pout`, then the
// buffers swap. pout/pin are the same in every thread of the block.

#define N 256

__global__ void scan_hillis_steele_double_buffer(float *out, const float *in) {
  __shared__ float temp[2 * N];
  int tid = threadIdx.x;
  int base = blockIdx.x * N;
  int pout = 0;
  int pin = 1;

  temp[pout * N + tid] = in[base + tid];
  __syncthreads();

  for (int offset = 1; offset < N; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      temp[pout * N + tid] = temp[pin * N + tid] + temp[pin * N + tid - offset];
    else
      temp[pout * N + tid] = temp[pin * N + tid];
    __syncthreads();
  }

  out[base + tid] = temp[pout * N + tid];
}
