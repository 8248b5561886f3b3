// expect: racy
// histogram_of_loaded_keys_drf.cu without the barrier after clearing: a
// thread may bump a counter that another thread is still zeroing.
__global__ void digit_counts(const unsigned *keys, unsigned *counts, int n) {
  __shared__ unsigned histo[16];
  unsigned gid = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  uint4 key = make_uint4(15, 15, 15, 15);
  if (gid + 3 < n)
    key = *((const uint4 *)(keys + gid));
  if (threadIdx.x < 16)
    histo[threadIdx.x] = 0;
  atomicAdd(histo + (key.x & 15), 1);
  atomicAdd(histo + (key.y & 15), 1);
  atomicAdd(histo + (key.z & 15), 1);
  atomicAdd(histo + (key.w & 15), 1);
  __syncthreads();
  if (threadIdx.x < 16)
    counts[blockIdx.x * 16 + threadIdx.x] = histo[threadIdx.x];
}
