// expect: racy
// GPUVerify's `__axiom` at file scope: every kernel of the file may assume
// it. The block is 128 threads wide while the shared row indexed modulo 64
// has 64 cells: threads `t` and `t + 64` write one cell.
__axiom(blockDim.x == 128);
__axiom(blockDim.y == 1);

__global__ void rotate(int *out, const int *in) {
  __shared__ int s[64];
  s[threadIdx.x % 64] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
