// expect: drf
// A fused recurrent-cell kernel: each thread owns one (batch, unit) pair
// and writes its four gates, which sit `hidden` apart inside a row of
// 4 * hidden per batch. The bound check returns early instead of
// wrapping the body.
__global__ void cell_gates(int hidden, int batch, const float *pre, float *gates, float *state) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int elements = batch * hidden;
  if (index >= elements) return;
  int b = index / hidden;
  int row = (index % hidden) + 4 * b * hidden;
  for (int g = 0; g < 4; g++)
    gates[row + g * hidden] = pre[row + g * hidden] * 0.5f;
  state[index] = gates[row] * gates[row + hidden];
}
