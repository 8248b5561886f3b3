// expect: racy
// The same per-warp partials, but the table of block sizes has 48: with
// one whole warp and half of another, warp 1 stores its maximum where warp
// 0 stores its sum (cell 1 of the buffer).
__global__ void row_stats(const float *in, float *out, int n) {
  extern __shared__ float partial[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  float *maxima = partial;
  float *sums = partial + warps;
  const float *row = in + blockIdx.x * n;
  float m = -1e30f, s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    m = fmaxf(m, row[i]);
    s += row[i];
  }
  for (int o = 16; o > 0; o /= 2) {
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    s += __shfl_xor_sync(0xffffffff, s, o);
  }
  if (lane == 0) {
    maxima[warp] = m;
    sums[warp] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < warps; w++) {
      maxima[0] = fmaxf(maxima[0], maxima[w]);
      sums[0] += sums[w];
    }
    out[2 * blockIdx.x] = maxima[0];
    out[2 * blockIdx.x + 1] = sums[0];
  }
}

static void launch_row_stats(const float *in, float *out, int rows, int n, int block_size) {
  row_stats<<<rows, block_size, 2 * (block_size / 32) * sizeof(float)>>>(in, out, n);
}

int main() {
  int block_sizes[] = {32, 48, 64, 128};
  float *in = 0, *out = 0;
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++)
    launch_row_stats(in, out, 64, 4096, block_sizes[j]);
  return 0;
}
