// expect: drf
// The CUDA samples' way to type dynamic shared memory in a template: a class
// template whose member function returns the `extern __shared__` buffer.
// Launched from a host template, the kernel is analysed with `T` open, so
// `shared.get()` is a call clang leaves unresolved; it is the class
// template's one `get`. Each thread owns its cell until the barrier.
template <class T>
struct SharedMemory {
  __device__ T *get() {
    extern __shared__ int raw[];
    return (T *)raw;
  }
};

template <class T, int BLOCK>
__global__ void reverse_block(T *data) {
  SharedMemory<T> shared;
  T *s = shared.get();
  int base = blockIdx.x * BLOCK;
  s[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = s[BLOCK - 1 - threadIdx.x];
}

template <class T>
void run(T *data, int n) {
  reverse_block<T, 128><<<n / 128, 128, 128 * sizeof(T)>>>(data);
}

template void run<float>(float *, int);
