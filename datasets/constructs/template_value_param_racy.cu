// expect: racy
// options: --block-dim 64
// A kernel template with a type and a value parameter, instantiated with a
// slot count (16) smaller than the block: threads t and t + 16 share a slot.

template <typename T, int SLOTS>
__global__ void spread(const T *in) {
  __shared__ T slots[SLOTS];
  slots[threadIdx.x % SLOTS] = in[threadIdx.x];
}

template __global__ void spread<int, 16>(const int *);
