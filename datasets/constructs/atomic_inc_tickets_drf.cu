// expect: drf
// Search results appended through `atomicInc(&count, 0xffffffff)`, as
// mining and search kernels do: with the largest limit the counter wraps
// only where 32-bit addition does, so each finding thread gets a slot of
// its own, as with `atomicAdd(&count, 1)`.
#define MAX_RESULTS 4u

__global__ void search(unsigned int *count, unsigned int *found, const unsigned int *hashes,
                       unsigned int target) {
  unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (hashes[gid] > target) return;
  unsigned int slot = atomicInc(count, 0xffffffff);
  if (slot >= MAX_RESULTS) return;
  found[2 * slot] = gid;
  found[2 * slot + 1] = hashes[gid];
}
