// expect: racy
// The same kernel, but the local that sizes the block is doubled on one
// path: the launch may be 128 wide, where threads t and t + 64 share a
// cell of `s`.
#define WIDTH 64

__global__ void shift_left(int *a) {
  __shared__ int s[WIDTH];
  int base = blockIdx.x * WIDTH;
  s[threadIdx.x % WIDTH] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = s[(threadIdx.x + 1) % WIDTH];
}

void run(int *a, int n, bool wide) {
  int threads = WIDTH;
  if (wide) threads *= 2;
  shift_left<<<dim3(n / threads), dim3(threads)>>>(a);
}
