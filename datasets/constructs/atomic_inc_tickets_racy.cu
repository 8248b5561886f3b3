// expect: racy
// atomic_inc_tickets_drf.cu with a small limit: `atomicInc(&count, 3)`
// wraps to 0 after 3, so a fifth finding thread gets the first thread's
// slot and both write it.
#define MAX_RESULTS 4u

__global__ void search(unsigned int *count, unsigned int *found, const unsigned int *hashes,
                       unsigned int target) {
  unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (hashes[gid] > target) return;
  unsigned int slot = atomicInc(count, MAX_RESULTS - 1);
  found[2 * slot] = gid;
  found[2 * slot + 1] = hashes[gid];
}
