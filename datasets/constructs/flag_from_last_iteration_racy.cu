// expect: racy
// options: --block-dim 64
// The flag of flag_from_last_iteration_drf.cu with the range's upper end
// off by one: after the last iteration `tx` runs to 64 - steps, one cell
// into the next block's part of `out`.
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
    if (tx >= i + 1 && tx <= 63 - i) {
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
