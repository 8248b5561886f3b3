// expect: drf
// A kernel template launched from a host template with every template
// argument deduced (`matrix_mul<<<grid, block>>>(…)` inside
// `run_gemm<T>`): the launch is of the template itself, whatever `T` is.
// The kernel indexes with the tile width, not `blockDim`, so it is correct
// only for the 16 x 16 blocks the host launches.
#define TILE 16

template <typename T>
__global__ void matrix_mul(const T *a, const T *b, T *c, int m, int k, int n) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  if (row < m && col < n) {
    T s = 0;
    for (int i = 0; i < k; i++)
      s += a[row * k + i] * b[i * n + col];
    c[row * n + col] = s;
  }
}

template <typename T>
void run_gemm(const T *a, const T *b, T *c, int m, int k, int n) {
  dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  dim3 block(TILE, TILE);
  matrix_mul<<<grid, block>>>(a, b, c, m, k, n);
}

template void run_gemm<float>(const float *, const float *, float *, int, int, int);
template void run_gemm<double>(const double *, const double *, double *, int, int, int);
