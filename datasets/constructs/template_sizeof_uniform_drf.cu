// expect: drf
// A byte count turned into an element count with sizeof of a template
// parameter: unknown to drfscan while the template is analysed
// uninstantiated, but the same in every thread, so the barrier in the loop
// it bounds is not divergent.
template <typename T>
__global__ void stage_tiles(const T *in, T *out, size_t bytes) {
  __shared__ T tile[256];
  size_t n = bytes / sizeof(T);
  for (size_t base = 0; base < n; base += 256) {
    if (base + threadIdx.x < n)
      tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    if (base + threadIdx.x < n)
      out[blockIdx.x * n + base + threadIdx.x] = tile[255 - threadIdx.x];
    __syncthreads();
  }
}

template <typename T>
void run(const T *in, T *out, size_t bytes, int blocks) {
  stage_tiles<T><<<blocks, 256>>>(in, out, bytes);
}
