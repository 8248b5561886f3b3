// expect: drf
// A 7-point stencil over a 3D grid, coarsened along x: each thread owns two
// columns, `i` and `i + blockDim.x`, of its block's 2 * blockDim.x, and
// walks the planes k. The flat index i + nx * (j + ny * k) is unique only
// because the guards keep i below nx and j below ny: a division by nx, then
// by ny, then of i by the block's width.
__global__ void stencil_planes(const float *in, float *out, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int i2 = i + blockDim.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  for (int k = 1; k < nz - 1; k++) {
    if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1)
      out[i + nx * (j + ny * k)] =
          in[i - 1 + nx * (j + ny * k)] + in[i + 1 + nx * (j + ny * k)] +
          in[i + nx * (j - 1 + ny * k)] + in[i + nx * (j + 1 + ny * k)] +
          in[i + nx * (j + ny * (k - 1))] + in[i + nx * (j + ny * (k + 1))];
    if (j > 0 && i2 < nx - 1 && j < ny - 1)
      out[i2 + nx * (j + ny * k)] =
          in[i2 - 1 + nx * (j + ny * k)] + in[i2 + 1 + nx * (j + ny * k)];
  }
}
