// expect: racy
// options: --block-dim 256 --grid-dim 16
// A __device__ global scalar written by thread 0 of every block: blocks are
// not ordered, so the writes race.

__device__ int g_last_block;

__global__ void record_block(void) {
  if (threadIdx.x == 0)
    g_last_block = blockIdx.x;
}
