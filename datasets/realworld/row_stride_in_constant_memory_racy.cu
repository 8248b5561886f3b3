// expect: racy
// Rows placed by a stride the host keeps in constant memory
// (`cudaMemcpyToSymbol`), as codes do with sizes every kernel of a file
// reads: the stride is a caller's choice like a parameter, and a stride
// shorter than a block lets a block's row run into the next one. Possible,
// with the precondition `row_stride >= blockDim.x`.
__constant__ int row_stride;

__global__ void spread_rows(const float *in, float *out) {
  out[blockIdx.x * row_stride + threadIdx.x] =
      in[blockIdx.x * blockDim.x + threadIdx.x];
}

void spread(const float *in, float *out, int rows, int threads, int stride) {
  cudaMemcpyToSymbol(row_stride, &stride, sizeof(int));
  spread_rows<<<rows, threads>>>(in, out);
}
