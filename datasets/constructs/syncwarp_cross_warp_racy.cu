// expect: racy
// options: --block-dim 64 --grid-dim 8
// __syncwarp orders the lanes of one warp only: thread t reads the cell of
// thread t + 32 (mod 64), which belongs to the other warp.

__global__ void swap_warps(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = (float)t;
  __syncwarp();
  out[blockIdx.x * 64 + t] = s[(t + 32) % 64];
}
