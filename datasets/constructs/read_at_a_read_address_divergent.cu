// expect: divergent
// read_at_a_read_address_drf.cu with the order read at the thread's own
// index: each thread looks up a different candidate's degree, skips
// different candidates, and waits at barriers the others skip.
__global__ void pick(const int *order, const int *degree, int *out, int n, int stride) {
  __shared__ int published;
  int best = -1;
  for (int i = blockIdx.x; i < n; i += stride) {
    int seed = order[i * blockDim.x + threadIdx.x];
    int d = degree[seed];
    if (d <= best) continue;
    if (threadIdx.x == 0) published = d;
    __syncthreads();
    int got = published;
    __syncthreads();
    if (got > best) best = got;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}
