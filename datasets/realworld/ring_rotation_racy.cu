// expect: racy
// Rotates a square matrix in place by a quarter turn, one ring per thread.
// Each cell is `row * n + col` with `col` below `n`; some columns count
// down (`n - 1 - i`), which puts a negative constant beside the row.
__global__ void rotate_rings(float *m, const int n) {
  // Two threads of a pair get the same ring and rotate it both.
  int ring = (blockIdx.x * blockDim.x + threadIdx.x) / 2;
  if (ring < n / 2) {
    int first = ring;
    int last = n - 1 - ring;
    for (int i = first; i < last; ++i) {
      int offset = i - first;
      float top = m[first * n + i];
      m[first * n + i] = m[(last - offset) * n + first];
      m[(last - offset) * n + first] = m[last * n + (last - offset)];
      m[last * n + (last - offset)] = m[i * n + last];
      m[i * n + last] = top;
    }
  }
}

void run(float *m, int n) {
  rotate_rings<<<(n / 2 + 255) / 256, 256>>>(m, n);
}
