// expect: drf
// options: --block-dim 256
// A block maximum then a block sum, each helper with its own `static
// __shared__` array of the same name, and a helper template whose
// instances (by the operator it folds with) each have their own array:
// four arrays, each written then read once across one barrier.
template <int THREADS>
__device__ float block_max(float v) {
  static __shared__ float partial[THREADS / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int d = 16; d > 0; d /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, d));
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  return partial[0];
}

template <int THREADS>
__device__ float block_sum(float v) {
  static __shared__ float partial[THREADS / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_xor_sync(0xffffffff, v, d);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  return partial[0];
}

__device__ float plus(float a, float b) { return a + b; }
__device__ float larger(float a, float b) { return fmaxf(a, b); }

template <float (*fold)(float, float)>
__device__ float block_fold(float v) {
  __shared__ float lanes[32];
  if (threadIdx.x % 8 == 0)
    lanes[threadIdx.x / 8] = v;
  __syncthreads();
  return fold(lanes[0], lanes[1]);
}

__global__ void softmax_rows(const float *x, float *y, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = i < n ? x[i] : -1e30f;
  float m = block_max<256>(v);
  float e = i < n ? expf(v - m) : 0.f;
  float s = block_sum<256>(e);
  float f = block_fold<larger>(e) + block_fold<plus>(s);
  if (i < n)
    y[i] = e / s + f;
}
