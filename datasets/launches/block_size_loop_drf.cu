// expect: drf
// A rotation through a 64-cell tile indexed modulo 64: threads t and t + 64
// would share a cell, but the benchmark loop launches it with 16, 32 and
// 64 threads only.
#define TILE 64

__global__ void rotate(int *a) {
  __shared__ int s[TILE];
  int base = blockIdx.x * blockDim.x;
  s[threadIdx.x % TILE] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  int *a = 0;
  for (int threads = 16; threads <= TILE; threads *= 2)
    rotate<<<1024 / threads, threads>>>(a);
  return 0;
}
