// expect: drf
// options: --block-dim 256 --grid-dim 4
// Only the first two warps take the branch: `t < 64` is the same for all
// 32 lanes of a warp, so every lane of a warp that enters reaches the
// __syncwarp, which then orders its lanes' shared-memory exchange.

__global__ void first_warps_rotate(const int *in, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int lane = t % 32;
  if (t < 64) {
    s[t] = in[blockIdx.x * 256 + t];
    __syncwarp();
    out[blockIdx.x * 64 + t] = s[t - lane + (lane + 1) % 32];
  }
}
