// expect: divergent
// options: --block-dim 64 --grid-dim 4
// Relaxation whose number of rounds depends on the thread: the barrier in the
// loop body is reached a different number of times by different threads.

#define N 64

__global__ void relax_per_thread(float *data) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[tid] = data[blockIdx.x * N + tid];
  for (int r = 0; r < tid % 4; r++) {
    __syncthreads();
    s[tid] = 0.5f * s[tid];
  }
  data[blockIdx.x * N + tid] = s[tid];
}
