// expect: racy
// tree_sum_counter_doubled_as_2_times_i_drf.cu without the barrier in the
// loop: thread 1 may still be writing its first round's sum when thread 3
// reads it in the second.
#define THREADS 512

__global__ void block_sums(float *sums, const float *in) {
  __shared__ float partial[THREADS];
  int t = threadIdx.x;
  int i;
  partial[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (i = 2; i <= THREADS; i = 2 * i) {
    if ((t + 1) % i == 0)
      partial[t] = partial[t] + partial[t - i / 2];
  }
  __syncthreads();
  if (t == THREADS - 1)
    sums[blockIdx.x] = partial[t];
}

void sum_blocks(float *sums, const float *in, int blocks) {
  block_sums<<<blocks, THREADS>>>(sums, in);
}
