// expect: drf
// A tree reduction whose counter doubles as `i = 2 * i` (Rodinia's srad
// writes it so): the loop has a barrier, so both threads are at the same
// power of two, and the threads that add (`(t + 1) % i == 0`) read what
// only threads that do not add in that round wrote.
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
    __syncthreads();
  }
  if (t == THREADS - 1)
    sums[blockIdx.x] = partial[t];
}

void sum_blocks(float *sums, const float *in, int blocks) {
  block_sums<<<blocks, THREADS>>>(sums, in);
}
