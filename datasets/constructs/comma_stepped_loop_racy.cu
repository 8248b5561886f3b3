// expect: racy
// `comma_stepped_loop_drf.cu` with the output stepped by half a row: the
// upper half of the block writes, in one iteration, the cells the lower
// half writes in the next, from another row of the input.
#define THREADS 64

__global__ void gather_rows(float *out, const float *in, int rows, int pitch) {
  int first = blockIdx.x * rows * THREADS;
  for (int r = 0, o = first; r < rows; r += 1, o += THREADS / 2)
    out[o + threadIdx.x] = in[r * pitch + threadIdx.x];
}

void launch(float *out, const float *in, int rows, int pitch, int blocks) {
  gather_rows<<<blocks, THREADS>>>(out, in, rows, pitch);
}
