// expect: drf
// Radix-sort digit counts: keys are read four at a time as a uint4, and
// each digit bumps its counter through pointer arithmetic on the shared
// histogram. The counter is unknown, but every bump is atomic and the
// histogram is cleared before a barrier.
__global__ void digit_counts(const unsigned *keys, unsigned *counts, int n) {
  __shared__ unsigned histo[16];
  unsigned gid = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  uint4 key = make_uint4(15, 15, 15, 15);
  if (gid + 3 < n)
    key = *((const uint4 *)(keys + gid));
  if (threadIdx.x < 16)
    histo[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(histo + (key.x & 15), 1);
  atomicAdd(histo + (key.y & 15), 1);
  atomicAdd(histo + (key.z & 15), 1);
  atomicAdd(histo + (key.w & 15), 1);
  __syncthreads();
  if (threadIdx.x < 16)
    counts[blockIdx.x * 16 + threadIdx.x] = histo[threadIdx.x];
}
