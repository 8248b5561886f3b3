// expect: drf
// RNA folding in the style of prna: each block takes pairs (i, j) in turn
// and skips those that cannot pair. `can_pair` returns a cell of the
// read-only pairing table at an address every thread of the block shares,
// or 0 outside the sequence: the value, merged over the helper's returns,
// is one for the whole block, so the barriers of the reduction after the
// `continue` are reached by all threads or none.
#define NTHREAD 128

__device__ static int upper_triangle(int i, int j) { return (j * (j - 1)) / 2 + i; }

__device__ static int can_pair(int i, int j, int n, const int *bcp) {
  if (i >= 0 && j <= n - 1 && i != j && j >= 0 && i <= n - 1) {
    if (i < j)
      return bcp[upper_triangle(i, j)];
    else
      return bcp[upper_triangle(j, i)];
  }
  return 0;
}

__device__ static void block_sum(float *x, int tid, int nt) {
  __shared__ float buf[NTHREAD];
  buf[tid] = *x;
  for (nt /= 2, __syncthreads(); nt > 0; nt /= 2, __syncthreads())
    if (tid < nt)
      buf[tid] += buf[tid + nt];
  if (tid == 0)
    *x = buf[0];
}

__global__ void pair_energy(int d, int n, const int *__restrict bcp,
                            const float *__restrict e, float *__restrict v) {
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    const int j = (i + d + 1) % n;
    if (!can_pair(i, j, n, bcp))
      continue;
    float x = 0;
    for (int k = threadIdx.x; k < n; k += blockDim.x)
      x += e[k];
    block_sum(&x, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0)
      v[i] = x;
  }
}

void fold(int d, int n, const int *bcp, const float *e, float *v) {
  pair_energy<<<n, NTHREAD>>>(d, n, bcp, e, v);
}
