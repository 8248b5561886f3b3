// expect: drf
// `__syncthreads_or` hands every thread of the block the same answer, so a
// barrier inside a branch on it is reached by the whole block or none of
// it; every thread also stores the same `__syncthreads_count` result.

__global__ void shift_if_any_negative(int *values, int *positives) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int g = blockIdx.x * 256 + t;
  s[t] = values[g];
  if (__syncthreads_or(s[t] < 0)) {
    int right = s[(t + 1) % 256];
    __syncthreads();
    s[t] = right;
  }
  int count = __syncthreads_count(s[t] > 0);
  values[g] = s[t];
  positives[blockIdx.x] = count;
}

void launch(int *values, int *positives, int blocks) {
  shift_if_any_negative<<<blocks, 256>>>(values, positives);
}
