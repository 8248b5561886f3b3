// expect: drf
// A kernel template launched from a host template: the launch names the
// kernel through an id only the host template's instantiation resolves
// (`rotate<T, 64>` with `T` still open), yet the tile width and the block
// size it fixes are constants. Each thread of a 64-wide block owns one
// cell of the 64-cell tile.
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
  rotate<T, 64><<<n / 64, 64>>>(a);
}

template void run<float>(float *, int);
template void run<int>(int *, int);
