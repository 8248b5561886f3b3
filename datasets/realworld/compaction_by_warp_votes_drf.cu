// expect: drf
// Stream compaction with warp-aggregated atomics written with warp votes
// rather than cooperative groups: the active lanes' mask names the group,
// its lowest lane takes room for all of them from the counter, broadcasts
// where that room starts, and each lane writes at the start plus the number
// of active lanes below it. No two kept elements land in one slot.
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
    start = atomicAdd(count, __popc(active));
  start = __shfl_sync(active, start, leader);
  return start + rank;
}

__device__ int reserve_slot_by_lane(int *count) {
  unsigned votes = __ballot_sync(__activemask(), 1);
  int leader = __ffs(votes) - 1;
  int lane = threadIdx.x % 32;
  int start;
  if (lane == leader)
    start = atomicAdd(count, __popc(votes));
  start = __shfl_sync(votes, start, leader);
  return start + __popc(votes & ((1 << lane) - 1));
}

__global__ void keep_positive(float *kept, int *count, const float *in,
                              int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    if (in[i] > 0.0f)
      kept[reserve_slot(count)] = in[i];
}

__global__ void keep_marked(int *kept, int *count, const int *marks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && marks[i] != 0)
    kept[reserve_slot_by_lane(count)] = i;
}

void compact(float *kept, int *count, const float *in, int *ids,
             const int *marks, int n) {
  keep_positive<<<128, 256>>>(kept, count, in, n);
  keep_marked<<<(n + 255) / 256, 256>>>(ids, count + 1, marks, n);
}
