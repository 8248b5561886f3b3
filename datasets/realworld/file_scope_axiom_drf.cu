// expect: drf
// GPUVerify's `__axiom` at file scope: every kernel of the file may assume
// it. The block is 64 threads wide, so the shared row indexed modulo 64
// has one cell per thread.
__axiom(blockDim.x == 64);
__axiom(blockDim.y == 1);

__global__ void rotate(int *out, const int *in) {
  __shared__ int s[64];
  s[threadIdx.x % 64] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
