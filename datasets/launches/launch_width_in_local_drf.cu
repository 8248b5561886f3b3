// expect: drf
// The block width reaches the launch through a local set once
// (`int threads = WIDTH; … dim3(threads)`): the kernel is DRF at that width
// (one cell of `s` per thread), racy in wider blocks.
#define WIDTH 64

__global__ void shift_left(int *a) {
  __shared__ int s[WIDTH];
  int base = blockIdx.x * WIDTH;
  s[threadIdx.x % WIDTH] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % WIDTH];
}

void run(int *a, int n) {
  int threads = WIDTH;
  shift_left<<<dim3(n / threads), dim3(threads)>>>(a);
}
