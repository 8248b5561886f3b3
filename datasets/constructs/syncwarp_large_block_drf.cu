// expect: drf
// options: --block-dim 128 --grid-dim 8
// Four warps per block; each lane swaps with its neighbour lane through
// shared memory. Lanes t and t ^ 1 are always in one warp, so __syncwarp
// orders the write and the read even though the block spans warps.

__global__ void swap_lanes_in_warps(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  s[t] = in[g];
  __syncwarp();
  out[g] = s[t ^ 1];
}
