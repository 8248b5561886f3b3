// expect: drf
// options: --block-dim 32 --grid-dim 8
// One warp per block exchanges values with its neighbour lane through shared
// memory, ordered by __syncwarp.

__global__ void swap_neighbours(const float *in, float *out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  int g = blockIdx.x * 32 + t;
  s[t] = in[g];
  __syncwarp();
  out[g] = s[t ^ 1];
}
