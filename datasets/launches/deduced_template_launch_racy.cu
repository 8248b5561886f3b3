// expect: racy
// A kernel template launched from a host template with every template
// argument deduced (`matrix_mul<<<grid, block>>>(…)` inside
// `run_gemm<T>`): the launch is of the template itself, whatever `T` is.
// Here the host launches 32 x 8 blocks: threads 16..31 of one block write
// the cells of the next block's first threads.
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
  dim3 block(2 * TILE, TILE / 2);
  matrix_mul<<<grid, block>>>(a, b, c, m, k, n);
}

template void run_gemm<float>(const float *, const float *, float *, int, int, int);
template void run_gemm<double>(const double *, const double *, double *, int, int, int);
