// expect: drf
// Forward gotos, as string-matching and parsing kernels write them: one
// leaves two nested loops for a label after them, one skips to the end of
// the block. Only thread 0 of a block reaches the single-cell write, and a
// thread's matches go to its own row.
#define ROW 64
__global__ void first_match(const char *text, int *hits, int *firsts, char c) {
  __shared__ int found;
  int t = threadIdx.x;
  if (t > 0)
    goto cells;
  found = -1;
cells:
  __syncthreads();
  for (int i = 0; i < ROW; i++) {
    for (int j = 0; j < 4; j++) {
      if (text[(blockIdx.x * blockDim.x + t) * ROW + i] == c)
        goto record;
    }
    hits[(blockIdx.x * blockDim.x + t) * ROW + i] = 0;
  }
  goto done;
record:
  hits[(blockIdx.x * blockDim.x + t) * ROW] = 1;
done:
  if (t == 0)
    firsts[blockIdx.x] = found;
}
