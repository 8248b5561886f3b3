// expect: drf
// A vectorised store through `float4` over a template's `T *`, with the
// vector width computed from `sizeof(T)`: one launch instantiates `T` as
// `float`, so four elements make one vector. Each thread clears its vector
// and then marks the first element of it.
template <typename T> __global__ void clear_and_mark(T *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  constexpr int V = 16 / sizeof(T);
  if (i * V < n) {
    reinterpret_cast<float4 *>(a)[i] = make_float4(0, 0, 0, 0);
    a[i * V] = 1;
  }
}

void run(float *a, int n) { clear_and_mark<float><<<n / 512, 128>>>(a, n); }
