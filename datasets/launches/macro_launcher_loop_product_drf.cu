// expect: drf
// The same macro-written launcher over a kernel where each thread writes
// only its own element: safe for every count the loop may compute.
__global__ void clear(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.0f;
}

int dimension(int d);

#define CLEAR_LAUNCHER(name)                                                  \
  void name(float *a, int ndim) {                                             \
    int n = 1;                                                                \
    for (int d = 0; d < ndim; ++d) {                                          \
      n *= dimension(d);                                                      \
    }                                                                         \
    clear<<<(n + 255) / 256, 256>>>(a, n);                                    \
  }

CLEAR_LAUNCHER(clear_all)
