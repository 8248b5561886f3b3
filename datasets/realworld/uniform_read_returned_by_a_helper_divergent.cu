// expect: divergent
// uniform_read_returned_by_a_helper_drf.cu where each thread asks about its
// own pair (`j` grows with `threadIdx.x`): threads of one block may
// disagree, and those that skip the pair miss the reduction's barriers.
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
    const int j = (i + d + 1 + threadIdx.x) % n;
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
