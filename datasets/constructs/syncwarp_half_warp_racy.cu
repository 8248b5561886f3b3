// expect: racy
// options: --block-dim 128 --grid-dim 4
// The __syncwarp sits under a condition only half of each warp's lanes
// take: the other half reads its neighbour's cell with nothing ordering
// the neighbour's write (and a full-mask __syncwarp that not every lane
// reaches is undefined behaviour).

__global__ void half_warp_swap(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  if (t % 32 < 16)
    __syncwarp();
  out[blockIdx.x * 128 + t] = s[t ^ 1];
}
