// expect: racy
// options: --block-dim 256
// The same helper instance called twice with no barrier after its read:
// one array, whose second write (thread 8 storing into
// `lanes[1]` again) races with the first call's read of it by a slower
// thread.
__device__ float plus(float a, float b) { return a + b; }

template <float (*fold)(float, float)>
__device__ float block_fold(float v) {
  __shared__ float lanes[32];
  if (threadIdx.x % 8 == 0)
    lanes[threadIdx.x / 8] = v;
  __syncthreads();
  return fold(lanes[0], lanes[1]);
}

__global__ void fold_twice(const float *x, float *y, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  float s = block_fold<plus>(v);
  float t = block_fold<plus>(v * s);
  if (i < n)
    y[i] = t;
}
