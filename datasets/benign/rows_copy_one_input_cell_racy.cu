// expect: racy
// rows_copy_one_input_cell_drf.cu with each row copying its own input
// cell into the shared cell: rows store different input cells, whose
// values may differ, so the writes race.

__global__ void scale_rows(const float *bn_scale, const float *in, float *out, int part) {
  __shared__ float scale[128];
  int tx = threadIdx.x, ty = threadIdx.y;
  scale[tx] = bn_scale[(part + ty) * 128 + tx];
  __syncthreads();
  int row = blockIdx.x * blockDim.y + ty;
  out[row * 128 + tx] = in[row * 128 + tx] * scale[tx];
}

void run(const float *bn_scale, const float *in, float *out, int rows) {
  scale_rows<<<rows / 4, dim3(128, 4)>>>(bn_scale, in, out, 1);
}
