// expect: drf
// A helper returns a cell's address or a null pointer, and callers test it
// before reading (`v = cell_or_null(…); if (v) … *v`): the null pointer is
// never dereferenced, so every access is through the cell.
__device__ int *cell_or_null(int *a, int i, int j, int n) {
  return i < j ? &a[i * n + j] : 0;
}

__global__ void best(int *v, int *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int best = 1 << 30;
  for (int j = 0; j < n; j++) {
    int *c = cell_or_null(v, i, j, n);
    if (c && *c < best) best = *c;
  }
  w[i] = best;
}
