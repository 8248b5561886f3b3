// expect: divergent
// The mutant of `syncthreads_or_branch_drf.cu` that branches on its own cell
// instead of the block's answer: only the threads holding a negative value
// reach the barrier inside.

__global__ void shift_if_any_negative(int *values, int *positives) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int g = blockIdx.x * 256 + t;
  s[t] = values[g];
  __syncthreads();
  if (s[t] < 0) {
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
