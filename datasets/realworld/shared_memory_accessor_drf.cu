// expect: drf
// The SDK idiom for dynamic shared memory in templates: a struct whose
// conversion to T* returns the `extern __shared__` array, used as
// `T *s = SharedMemoryOf<T>();` in a kernel template launched with its
// type. Interleaved reduction with a barrier per step.
template <class T>
struct SharedMemoryOf {
  __device__ inline operator T *() {
    extern __shared__ int __smem_words[];
    return (T *)__smem_words;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem_words[];
    return (T *)__smem_words;
  }
};

template <class T>
__global__ void reduce_interleaved(const T *in, T *out, unsigned int n) {
  T *s = SharedMemoryOf<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = (i < n) ? in[i] : 0;
  __syncthreads();
  for (unsigned int step = 1; step < blockDim.x; step *= 2) {
    if (tid % (2 * step) == 0)
      s[tid] += s[tid + step];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

void reduce(const float *in, float *out, unsigned int n) {
  reduce_interleaved<float><<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}
