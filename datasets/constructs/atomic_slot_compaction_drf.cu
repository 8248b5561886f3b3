// expect: drf
// options: --block-dim 256 --grid-dim 16
// Stream compaction with a shared atomic counter: atomicAdd returns a
// distinct slot to every thread, so the stores kept[slot] never collide.
// (An analysis that forgets the values returned by atomics sees an unknown
// index here and can only report a possible race; drfscan knows two
// threads' tickets of one counter differ.)

__global__ void compact_block(const float *in, float *out, int *counts) {
  __shared__ int next;
  __shared__ float kept[256];
  int g = blockIdx.x * blockDim.x + threadIdx.x;

  if (threadIdx.x == 0)
    next = 0;
  __syncthreads();

  float v = in[g];
  if (v > 0.0f) {
    int slot = atomicAdd(&next, 1);
    kept[slot] = v;
  }
  __syncthreads();

  if (threadIdx.x < next)
    out[g] = kept[threadIdx.x];
  if (threadIdx.x == 0)
    counts[blockIdx.x] = next;
}
