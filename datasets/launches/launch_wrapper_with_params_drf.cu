// expect: drf
// Launches through a wrapper that takes the kernel and a structure of
// launch parameters, as tensor libraries write them (to add launch
// attributes in one place): the block size is a field of the structure,
// set by its constructor where the wrapper is called. Each launch is of
// a 64-thread block, which the kernel's `% 64` tile assumes; the second
// wrapper takes the sizes themselves.
struct launch_params {
  dim3 grid;
  dim3 block;
  size_t shmem;
  cudaStream_t stream;
  launch_params(const dim3 &g, const dim3 &b, size_t s, cudaStream_t st)
      : grid(g), block(b), shmem(s), stream(st) {}
};

template <typename Kernel, typename... Args>
static void launch(Kernel kernel, const launch_params &p, Args &&...args) {
  kernel<<<p.grid, p.block, p.shmem, p.stream>>>(args...);
}

template <typename Kernel, typename... Args>
static void launch_sized(Kernel kernel, dim3 grid, dim3 block, Args... args) {
  kernel<<<grid, block>>>(args...);
}

template <typename T>
__global__ void reverse_tiles(T *x, int n) {
  __shared__ T tile[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 64] = i < n ? x[i] : T(0);
  __syncthreads();
  if (i < n) {
    x[i] = tile[63 - threadIdx.x % 64];
  }
}

template <typename T>
void reverse(T *x, int n, cudaStream_t stream) {
  const launch_params p((n + 63) / 64, 64, 0, stream);
  launch(reverse_tiles<T>, p, x, n);
}

void reverse_all(float *a, int *b, int n, cudaStream_t stream) {
  reverse(a, n, stream);
  launch_sized(reverse_tiles<int>, dim3((n + 63) / 64), dim3(64), b, n);
}
