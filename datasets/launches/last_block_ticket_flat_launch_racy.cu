// expect: racy
// last_block_ticket_flat_launch_drf.cu launched with blocks of two rows:
// the two threads with threadIdx.x == 0 of a block each write a partial
// sum at the same place and take a ticket.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned int finished = 0;

__global__ void sum_single_pass(const float *in, float *partial, float *total, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  __shared__ bool last;
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int half = 64; half > 0; half /= 2) {
    if (threadIdx.x < half)
      s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned int ticket = atomicInc(&finished, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && block.thread_rank() == 0) {
    float sum = 0.0f;
    for (int b = 0; b < gridDim.x; b++)
      sum += partial[b];
    total[0] = sum;
    finished = 0;
  }
}

void sum(const float *in, float *partial, float *total, int n) {
  sum_single_pass<<<(n + 127) / 128, dim3(128, 2)>>>(in, partial, total, n);
}
