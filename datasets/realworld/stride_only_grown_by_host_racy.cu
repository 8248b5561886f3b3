// expect: racy
// stride_only_grown_by_host_drf.cu with the stride starting at 0: growing
// it by adding keeps the first pass's stride 0, and every block's thread
// 0 adds to `sums[0]`.
#define THREADS 256

__global__ void gather_pass(float *sums, int count, int stride) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < count && threadIdx.x == 0)
    sums[blockIdx.x * stride * THREADS] += 1.0f;
}

void reduce_all(float *sums, int count) {
  int stride;
  int blocks = (count + THREADS - 1) / THREADS;
  stride = 0;
  while (count > 1) {
    gather_pass<<<blocks, THREADS>>>(sums, count, stride);
    count = blocks;
    blocks = (blocks + THREADS - 1) / THREADS;
    stride += THREADS;
  }
}
