// expect: drf
// Each pass of a multi-pass reduction gathers every `stride`-th partial
// sum; host code starts the stride at 1 and only ever multiplies it, so
// the kernel never sees a stride of 0, for which every block would write
// the same cell.
#define THREADS 256

__global__ void gather_pass(float *sums, int count, int stride) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < count && threadIdx.x == 0)
    sums[blockIdx.x * stride * THREADS] += 1.0f;
}

void reduce_all(float *sums, int count) {
  int stride;
  int blocks = (count + THREADS - 1) / THREADS;
  stride = 1;
  while (count > 1) {
    gather_pass<<<blocks, THREADS>>>(sums, count, stride);
    count = blocks;
    blocks = (blocks + THREADS - 1) / THREADS;
    stride = stride * THREADS;
  }
}
