// expect: racy
// A launcher a macro writes (as PyTorch bindings are often written): the
// element count starts at 1 and is multiplied by every dimension in a
// loop inside the expansion, then sizes the grid and is passed to the
// kernel. Each thread copies its element one cell up, onto the next
// thread's, so any count above one races; reading the count as its
// starting 1 would launch a single thread and see none.
__global__ void shift_up(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i + 1] = a[i];
}

int dimension(int d);

#define SHIFT_LAUNCHER(name)                                                  \
  void name(float *a, int ndim) {                                             \
    int n = 1;                                                                \
    for (int d = 0; d < ndim; ++d) {                                          \
      n *= dimension(d);                                                      \
    }                                                                         \
    shift_up<<<(n + 255) / 256, 256>>>(a, n);                                 \
  }

SHIFT_LAUNCHER(shift_all)
