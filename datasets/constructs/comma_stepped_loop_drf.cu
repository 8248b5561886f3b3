// expect: drf
// A loop that steps two variables in its increment (`r += 1, o += THREADS`),
// as SDK-era matrix kernels walk the tiles of two matrices at once. The
// output offset `o` advances one row of the block per iteration, so each
// block fills its own `rows * THREADS` cells.
#define THREADS 64

__global__ void gather_rows(float *out, const float *in, int rows, int pitch) {
  int first = blockIdx.x * rows * THREADS;
  for (int r = 0, o = first; r < rows; r += 1, o += THREADS)
    out[o + threadIdx.x] = in[r * pitch + threadIdx.x];
}

void launch(float *out, const float *in, int rows, int pitch, int blocks) {
  gather_rows<<<blocks, THREADS>>>(out, in, rows, pitch);
}
