// expect: racy
// options: --block-dim 64
// A macro hides a many-to-one index: threads 2k and 2k + 1 write pair[k].

#define PAIR(t) ((t) >> 1)

__global__ void pair_up(void) {
  __shared__ int pair[32];
  pair[PAIR(threadIdx.x)] = threadIdx.x;
}
