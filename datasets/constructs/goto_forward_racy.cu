// expect: racy
// goto_forward_drf.cu with the label of the skip before the write it was
// to skip: every thread of a block writes `found`.
#define ROW 64
__global__ void first_match(const char *text, int *hits, int *firsts, char c) {
  __shared__ int found;
  int t = threadIdx.x;
  if (t > 0)
    goto cells;
cells:
  found = -t;
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
