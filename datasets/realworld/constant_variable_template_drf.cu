// expect: drf
// A `__constant__` variable template read in a kernel template
// (`mask<T>[j]`): read-only memory, which never races.
#define MASK_WIDTH 5
template <typename T> __constant__ T mask[MASK_WIDTH];

template <typename T>
__global__ void conv1d(const T *__restrict__ in, T *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T s = 0;
  int start = i - MASK_WIDTH / 2;
  for (int j = 0; j < MASK_WIDTH; j++)
    if (start + j >= 0 && start + j < n)
      s += in[start + j] * mask<T>[j];
  out[i] = s;
}
