// expect: divergent
// early_return_required_multiple_drf.cu requiring only an even size: a
// block of four threads over six elements has two on each side of the
// check. The report suggests the precondition that would prove it.
__global__ void rotate_blocks(float *a, int n) {
  __requires(n % 2 == 0);
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[(threadIdx.x + 1) % blockDim.x];
}
