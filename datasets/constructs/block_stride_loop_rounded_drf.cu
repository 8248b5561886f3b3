// expect: drf
// A block-stride loop with barriers in its body, run to `n` rounded up to
// a whole number of blocks: every thread of the block runs the same
// iterations, those past `n` only without loading, so the barriers do not
// diverge, for any block size.
__global__ void rotate_rows(float *rows, int n) {
  __shared__ float s[1024];
  float *row = rows + blockIdx.x * n;
  int rounded = (n + blockDim.x - 1) / blockDim.x * blockDim.x;
  for (int i = threadIdx.x; i < rounded; i += blockDim.x) {
    s[threadIdx.x] = i < n ? row[i] : 0.0f;
    __syncthreads();
    if (i < n)
      row[i] = s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}
