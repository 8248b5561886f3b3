// expect: racy
// A vectorised store through `float4` over a template's `T *` (`T` is
// `float` at the one launch): each thread clears its vector of four, but
// then marks element `i` instead of its vector's first element `4 * i`,
// which lies in the vector of thread `i / 4`.
template <typename T> __global__ void clear_and_mark(T *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  constexpr int V = 16 / sizeof(T);
  if (i * V < n) {
    reinterpret_cast<float4 *>(a)[i] = make_float4(0, 0, 0, 0);
    a[i] = 1;
  }
}

void run(float *a, int n) { clear_and_mark<float><<<n / 512, 128>>>(a, n); }
