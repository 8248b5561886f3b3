// expect: racy
// In a kernel template analysed uninstantiated, a call of an overloaded
// function template stays unresolved: drfscan cannot see which body runs,
// so the call may write the shared tile anywhere, and another thread reads
// it in the same barrier interval.
template <typename T> __device__ void clear_row(T *row, int n) {
  for (int i = 0; i < n; i++) row[i] = T(0);
}
template <typename T> __device__ void clear_row(T *row, unsigned n) {
  for (unsigned i = 0; i < n; i++) row[i] = T(0);
}

template <typename T>
__global__ void clear_then_read(T *out, int n) {
  __shared__ T tile[256];
  if (threadIdx.x == 0)
    clear_row(tile, n);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

template <typename T>
void run(T *out, int n, int blocks) {
  clear_then_read<T><<<blocks, 256>>>(out, n);
}
