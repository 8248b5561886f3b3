// expect: racy
// shared_memory_unusable_primary_drf.cu without the barrier in the
// reduction's loop: a thread adds `s[t + d]` while its owner may still be
// adding into it.

template <typename T> struct SharedMemory {
  __device__ T *get() {
    extern __device__ void never_instantiated(void);
    never_instantiated();
    return NULL;
  }
};

template <> struct SharedMemory<float> {
  __device__ float *get() {
    extern __shared__ float s_float[];
    return s_float;
  }
};

template <> struct SharedMemory<int> {
  __device__ int *get() {
    extern __shared__ int s_int[];
    return s_int;
  }
};

template <typename T> __global__ void block_sum(const T *in, T *out, unsigned n) {
  SharedMemory<T> smem;
  T *s = smem.get();
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d)
      s[t] += s[t + d];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
