// expect: racy
// shared_memory_accessor_drf.cu without the barrier in the loop: a thread
// reads s[tid + step] while its owner may still be adding into it. The
// accessor is a function template here.
template <class T>
__device__ T *dynamic_shared() {
  extern __shared__ int __smem_words[];
  return (T *)__smem_words;
}

template <class T>
__global__ void reduce_interleaved_unsynced(const T *in, T *out, unsigned int n) {
  T *s = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = (i < n) ? in[i] : 0;
  __syncthreads();
  for (unsigned int step = 1; step < blockDim.x; step *= 2) {
    if (tid % (2 * step) == 0)
      s[tid] += s[tid + step];
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

void reduce(const float *in, float *out, unsigned int n) {
  reduce_interleaved_unsynced<float><<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}
