// expect: racy
// compaction_by_warp_votes_drf.cu with the leader taking one slot for the
// whole warp: the active lanes other than the leader write past it, into
// slots another warp's leader may take.
__device__ __forceinline__ unsigned lanes_below_mine() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ int reserve_slot(int *count) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  unsigned rank = __popc(active & lanes_below_mine());
  int start;
  if (rank == 0)
    start = atomicAdd(count, 1);
  start = __shfl_sync(active, start, leader);
  return start + rank;
}

__global__ void keep_positive(float *kept, int *count, const float *in,
                              int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    if (in[i] > 0.0f)
      kept[reserve_slot(count)] = in[i];
}

void compact(float *kept, int *count, const float *in, int n) {
  keep_positive<<<128, 256>>>(kept, count, in, n);
}
