// expect: racy
// gates_early_return_drf.cu with rows of `hidden` instead of 4 * hidden:
// gate 1 of one batch is gate 0 of the next.
__global__ void cell_gates_short_rows(int hidden, int batch, const float *pre, float *gates) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int elements = batch * hidden;
  if (index >= elements) return;
  int b = index / hidden;
  int row = (index % hidden) + b * hidden;
  for (int g = 0; g < 4; g++)
    gates[row + g * hidden] = pre[row + g * hidden] * 0.5f;
}
