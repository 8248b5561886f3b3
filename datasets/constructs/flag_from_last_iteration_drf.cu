// expect: drf
// options: --block-dim 64
// A flag every iteration sets anew and the code after the loop reads (the
// stencil kernels that shrink their valid range by one cell per step): its
// value after the loop is the last iteration's, `tx` within [steps, 63 -
// steps], so each block writes its own `64 - 2 * steps` cells.
__global__ void shrink(const float *in, float *out, int steps) {
  __shared__ float cur[64];
  int tx = threadIdx.x;
  int small = 64 - 2 * steps;
  cur[tx] = in[blockIdx.x * 64 + tx];
  __syncthreads();
  bool kept;
  for (int i = 0; i < steps; i++) {
    kept = false;
    float v = cur[tx];
    if (tx >= i + 1 && tx <= 62 - i) {
      kept = true;
      v = 0.5f * (cur[tx - 1] + cur[tx + 1]);
    }
    __syncthreads();
    if (i == steps - 1)
      break;
    if (kept)
      cur[tx] = v;
    __syncthreads();
  }
  if (steps > 0 && kept)
    out[blockIdx.x * small + tx - steps] = cur[tx];
}
