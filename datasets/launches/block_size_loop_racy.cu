// expect: racy
// The same rotation, but the benchmark loop goes on to 128 threads, where
// threads t and t + 64 write the same cell of the tile.
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
  for (int threads = 16; threads <= 2 * TILE; threads *= 2)
    rotate<<<1024 / threads, threads>>>(a);
  return 0;
}
