// expect: racy
// braced_view_with_pointer_fields_drf.cu with the view made on the first
// column for every thread: all threads assign `c[1]`, each its own key.
struct Counts {
  int *base;
  int stride;
  __device__ int &operator[](int b) { return base[b * stride]; }
};

__global__ void tally(int *counts, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Counts c{counts, n};
  c[1] = keys[i];
}
