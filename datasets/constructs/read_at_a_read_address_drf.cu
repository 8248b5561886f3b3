// expect: drf
// A block walks a list of candidates: it reads the next one from an
// order array at an index the block shares, then that candidate's degree
// at the address the first read gave. Both reads are the block's, so the
// skip of a candidate no better than the best so far is taken by every
// thread, and the barriers after it are reached by the whole block.
__global__ void pick(const int *order, const int *degree, int *out, int n, int stride) {
  __shared__ int published;
  int best = -1;
  for (int i = blockIdx.x; i < n; i += stride) {
    int seed = order[i];
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
