// expect: racy
// Two block-wide reductions with CUB on one temporary storage and no
// barrier between them: CUB's contract asks for one before the storage is
// used again, since the second reduction's stores meet the first one's
// reads of the other warps' partial sums.
#include <cub/cub.cuh>

__global__ void mean_and_square(const float *x, float *out, int n) {
  using BlockReduce = cub::BlockReduce<float, 256>;
  __shared__ typename BlockReduce::TempStorage temp;
  float s = 0.0f, q = 0.0f;
  for (int i = blockIdx.x * n + threadIdx.x; i < (blockIdx.x + 1) * n; i += blockDim.x) {
    s += x[i];
    q += x[i] * x[i];
  }
  s = BlockReduce(temp).Sum(s);
  q = BlockReduce(temp).Sum(q);
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = s / n;
    out[2 * blockIdx.x + 1] = q / n;
  }
}

int main() {
  float *x, *out;
  mean_and_square<<<64, 256>>>(x, out, 4096);
  return 0;
}
