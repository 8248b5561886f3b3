// expect: racy
// inline_ptx_lane_drf.cu indexed by the lane from %laneid instead of the
// thread: a block of 256 threads has eight warps, and lanes with the same
// number in different warps store to the same cell of the block's row.
__device__ unsigned lane_of_thread() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__global__ void lane_sequence(int *seq, int length) {
  int elem = blockIdx.x * 32 + lane_of_thread();
  if (elem < length) {
    seq[elem] = threadIdx.x;
  }
}

int main() {
  int *seq;
  const int n = 1 << 16;
  cudaMalloc(&seq, n * sizeof(int));
  lane_sequence<<<n / 32, 256>>>(seq, n);
  cudaDeviceSynchronize();
  return 0;
}
