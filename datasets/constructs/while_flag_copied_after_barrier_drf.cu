// expect: drf
// Smoothing until nothing changes: each round, thread 0 clears a shared
// flag, threads that change their cell set it, and after a barrier every
// thread copies it into the loop's test. The test is the block's at each
// round, so all threads leave together.
__global__ void smooth(float *x, int rounds) {
  __shared__ int changed_s;
  __shared__ float cells[256];
  int changed = 1;
  int round = 0;
  while (changed && round < rounds) {
    if (threadIdx.x == 0) changed_s = 0;
    __syncthreads();
    cells[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    float v = 0.5f * (cells[threadIdx.x] + cells[(threadIdx.x + 1) % 256]);
    if (v != cells[threadIdx.x]) changed_s = 1;
    x[blockIdx.x * 256 + threadIdx.x] = v;
    __syncthreads();
    changed = changed_s;
    round++;
    __syncthreads();
  }
}

void run(float *x, int blocks, int rounds) { smooth<<<blocks, 256>>>(x, rounds); }
