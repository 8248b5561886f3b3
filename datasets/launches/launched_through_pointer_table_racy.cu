// expect: racy
// A kernel launched through a table of kernel pointers, with block sizes
// kept in an array: drfscan cannot read the launch, so the kernel is
// analysed for every block shape. In blocks wider than 64 the tile's cells
// are shared and the kernel races; whether the program launches such a
// block is unknown, so the race is possible, not confirmed.
#define WIDTH 64

__global__ void tile_copy(const float *in, float *out) {
  __shared__ float s[WIDTH];
  int base = blockIdx.x * WIDTH;
  s[threadIdx.x % WIDTH] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = s[(WIDTH - 1) - threadIdx.x % WIDTH];
}

__global__ void tile_scale(const float *in, float *out) {
  int i = blockIdx.x * WIDTH + threadIdx.x;
  out[i] = 2.0f * in[i];
}

void run(const float *in, float *out, int n) {
  void (*kernels[2])(const float *, float *) = {tile_copy, tile_scale};
  dim3 blocks[2] = {dim3(WIDTH), dim3(WIDTH)};
  for (int k = 0; k < 2; k++)
    kernels[k]<<<n / WIDTH, blocks[k]>>>(in, out);
}
