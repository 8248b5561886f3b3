// expect: racy
// pointer_or_null_drf.cu writing through the helper's pointer: thread `i`
// writes cell (i, j) above the diagonal, which thread `j` reads as its
// mirror cell.
__device__ int *cell_or_null(int *a, int i, int j, int n) {
  return i < j ? &a[i * n + j] : 0;
}

__global__ void mirror(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < n; j++) {
    int *c = cell_or_null(v, i, j, n);
    if (c) *c = v[j * n + i];
  }
}
