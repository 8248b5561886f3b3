// expect: drf
// Batch-norm style staging: every row of a 128 x 4 block copies the same
// 128 scale factors into shared memory. Rows write one cell each with a
// copy of one input cell that no thread writes, so the values are equal:
// a benign race (drfscan --strict reports it).

__global__ void scale_rows(const float *bn_scale, const float *in, float *out, int part) {
  __shared__ float scale[128];
  int tx = threadIdx.x, ty = threadIdx.y;
  scale[tx] = bn_scale[part * 128 + tx];
  __syncthreads();
  int row = blockIdx.x * blockDim.y + ty;
  out[row * 128 + tx] = in[row * 128 + tx] * scale[tx];
}

void run(const float *bn_scale, const float *in, float *out, int rows) {
  scale_rows<<<rows / 4, dim3(128, 4)>>>(bn_scale, in, out, 1);
}
