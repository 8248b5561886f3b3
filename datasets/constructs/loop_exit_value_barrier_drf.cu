// expect: drf
// A work-efficient scan: an up-sweep doubles `offset` while it is below
// the block's share, and the down-sweep starts from where it ended. Every
// thread runs the up-sweep alike, so the down-sweep's barriers are reached
// by all of them.
#define N 1024

__global__ void prefix_sums(float *blocks, int length) {
  __shared__ float s[N];
  float *data = blocks + blockIdx.x * N;
  int t = threadIdx.x;
  s[2 * t] = data[2 * t];
  s[2 * t + 1] = data[2 * t + 1];
  int offset = 1;
  while (offset < length) {
    __syncthreads();
    int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
    if (b < N)
      s[b] += s[a];
    offset <<= 1;
  }
  offset >>= 1;
  while (offset > 0) {
    __syncthreads();
    int a = offset * (2 * t + 2) - 1, b = offset * (2 * t + 3) - 1;
    if (b < N)
      s[b] += s[a];
    offset >>= 1;
  }
  __syncthreads();
  data[2 * t] = s[2 * t];
  data[2 * t + 1] = s[2 * t + 1];
}

void scan_blocks(float *d, int blocks, int length) {
  prefix_sums<<<blocks, N / 2>>>(d, length);
}
