// expect: racy
// stencil_coarsened_planes_drf.cu with the second column one short
// (`i + blockDim.x - 1`): a thread's second column is the next thread's
// first, and both write it.
__global__ void stencil_planes(const float *in, float *out, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int i2 = i + blockDim.x - 1;
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
