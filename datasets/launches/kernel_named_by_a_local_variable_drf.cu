// expect: drf
// Host code that names the instantiation it launches in a local variable
// first (`auto kernel = tile_copy<T, true>;`), sets an attribute on it, and
// launches through the variable, as libraries that pick an instantiation
// from runtime switches do. The tile is safe for the 64-thread blocks every
// launch uses; in wider blocks `threadIdx.x % 64` would share cells.
#define WIDTH 64

template <typename T, bool Scale>
__global__ void tile_copy(const T *in, T *out) {
  __shared__ T s[WIDTH];
  int base = blockIdx.x * WIDTH;
  s[threadIdx.x % WIDTH] = in[base + threadIdx.x];
  __syncthreads();
  T v = s[(WIDTH - 1) - threadIdx.x % WIDTH];
  out[base + threadIdx.x] = Scale ? 2 * v : v;
}

template <typename T> void run(const T *in, T *out, int n, bool scale) {
  if (scale) {
    auto kernel = tile_copy<T, true>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    kernel<<<n / WIDTH, WIDTH>>>(in, out);
  } else {
    auto kernel = &tile_copy<T, false>;
    kernel<<<n / WIDTH, WIDTH>>>(in, out);
  }
}

void run_float(const float *in, float *out, int n) {
  auto kernel = tile_copy<float, false>;
  kernel<<<n / WIDTH, dim3(WIDTH)>>>(in, out);
}
