// expect: drf
// A bounds check before a barrier, with the precondition that makes it
// uniform stated: the size is a whole number of blocks, whatever block the
// caller picks, so every thread of a block returns or none does.
__global__ void rotate_blocks(float *a, int n) {
  __requires(n % blockDim.x == 0);
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[(threadIdx.x + 1) % blockDim.x];
}
