// expect: drf
// row_stride_in_constant_memory_racy.cu with the precondition drfscan
// suggests for it: the stride in constant memory holds a block's row.
__constant__ int row_stride;

__global__ void spread_rows(const float *in, float *out) {
  __requires(row_stride >= blockDim.x);
  out[blockIdx.x * row_stride + threadIdx.x] =
      in[blockIdx.x * blockDim.x + threadIdx.x];
}

void spread(const float *in, float *out, int rows, int threads, int stride) {
  cudaMemcpyToSymbol(row_stride, &stride, sizeof(int));
  spread_rows<<<rows, threads>>>(in, out);
}
