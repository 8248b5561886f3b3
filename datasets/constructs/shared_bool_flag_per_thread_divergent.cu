// expect: divergent
// The mutant of `shared_bool_flag_uniform_drf.cu`: each thread tests a flag
// of its own row cell, so threads of one block may disagree and only some
// of them reach the barrier inside the branch.

__global__ void compact_busy_rows(const int *counts, float *rows, float *sums, int width) {
  __shared__ float partial[256];
  int t = threadIdx.x;
  bool busy = counts[blockIdx.x * 256 + t] > 0;
  if (busy) {
    partial[t] = t < width ? rows[blockIdx.x * width + t] : 0.0f;
    __syncthreads();
    if (t == 0) {
      float s = 0.0f;
      for (int i = 0; i < 256; i++) s += partial[i];
      sums[blockIdx.x] = s;
    }
  }
}

void launch(const int *counts, float *rows, float *sums, int nrows, int width) {
  compact_busy_rows<<<nrows, 256>>>(counts, rows, sums, width);
}
