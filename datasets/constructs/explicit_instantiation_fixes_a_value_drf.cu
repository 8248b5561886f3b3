// expect: drf
// options: --block-dim 64
// A kernel template no host code launches, instantiated explicitly with as
// many slots as the block has threads (a macro): each thread owns a slot.
// With its slot count open, the template would race (16 slots for 64
// threads).
#define SLOTS_PER_BLOCK 64

template <typename T, int SLOTS>
__global__ void rotate(const T *in, T *out) {
  __shared__ T slots[SLOTS];
  slots[threadIdx.x % SLOTS] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = slots[(threadIdx.x + 1) % SLOTS];
}

template __global__ void rotate<unsigned int, SLOTS_PER_BLOCK>(const unsigned int *, unsigned int *);
