// expect: racy
// options: --block-dim 64
// explicit_instantiation_fixes_a_value_drf.cu instantiated with half as
// many slots as threads: threads t and t + 32 write one slot.
#define SLOTS_PER_BLOCK 32

template <typename T, int SLOTS>
__global__ void rotate(const T *in, T *out) {
  __shared__ T slots[SLOTS];
  slots[threadIdx.x % SLOTS] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = slots[(threadIdx.x + 1) % SLOTS];
}

template __global__ void rotate<unsigned int, SLOTS_PER_BLOCK>(const unsigned int *, unsigned int *);
