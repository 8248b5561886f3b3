// expect: divergent
// block_stride_loop_rounded_drf.cu looping to `n` itself: when `n` is not
// a multiple of the block, the threads past its end leave the loop one
// iteration early and skip the barriers the others wait at.
__global__ void rotate_rows(float *rows, int n) {
  __shared__ float s[1024];
  float *row = rows + blockIdx.x * n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = row[i];
    __syncthreads();
    row[i] = s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}
