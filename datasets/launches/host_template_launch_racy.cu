// expect: racy
// The same host template launching the kernel with a 32-cell tile but
// 64-thread blocks: threads t and t + 32 write the same cell.
template <class T, int TILE>
__global__ void rotate(T *a) {
  __shared__ T s[TILE];
  int base = blockIdx.x * blockDim.x;
  s[threadIdx.x % TILE] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % TILE];
}

template <class T>
void run(T *a, int n) {
  rotate<T, 32><<<n / 64, 64>>>(a);
}

template void run<float>(float *, int);
template void run<int>(int *, int);
