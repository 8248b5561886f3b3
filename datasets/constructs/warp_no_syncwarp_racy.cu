// expect: racy
// options: --block-dim 32 --grid-dim 8
// syncwarp_drf.cu relying on implicit warp-synchronous execution: without
// __syncwarp lane t may read s[t ^ 1] before its neighbour wrote it.

__global__ void swap_neighbours_unsynced(const float *in, float *out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  int g = blockIdx.x * 32 + t;
  s[t] = in[g];
  out[g] = s[t ^ 1];
}
