// expect: racy
// Host code that names the instantiation it launches in a local variable
// first (`auto kernel = tile_copy<T, true>;`), sets an attribute on it, and
// launches through the variable, as libraries that pick an instantiation
// from runtime switches do. Every launch uses blocks of 128 threads, whose
// halves share the 64 cells of the tile (`threadIdx.x % 64`).
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
    kernel<<<n / (2 * WIDTH), 2 * WIDTH>>>(in, out);
  } else {
    auto kernel = &tile_copy<T, false>;
    kernel<<<n / (2 * WIDTH), 2 * WIDTH>>>(in, out);
  }
}

void run_float(const float *in, float *out, int n) {
  auto kernel = tile_copy<float, false>;
  kernel<<<n / (2 * WIDTH), dim3(2 * WIDTH)>>>(in, out);
}
