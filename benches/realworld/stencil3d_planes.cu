// expect: drf
// A 7-point 3D stencil marching along z, coarsened by two along x: each
// thread owns columns i and i + blockDim.x of its block's 2 * blockDim.x,
// keeps the current plane in a shared tile (a barrier before and after the
// tile is refreshed) and the planes below and above in registers. Output
// cells i + nx * (j + ny * k) of two threads meet only if the guards let a
// column or row run past nx or ny.
__global__ void stencil3d_planes(const float *in, float *out, int nx, int ny, int nz,
                                 float c0, float c1) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int i2 = i + blockDim.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int t = threadIdx.x + threadIdx.y * blockDim.x * 2;
  int t2 = t + blockDim.x;
  float below = 0.0f, below2 = 0.0f, above = 0.0f, above2 = 0.0f;
  if (i < nx && j < ny) {
    below = in[i + nx * j];
    tile[t] = in[i + nx * (j + ny)];
  }
  if (i2 < nx && j < ny) {
    below2 = in[i2 + nx * j];
    tile[t2] = in[i2 + nx * (j + ny)];
  }
  __syncthreads();
  for (int k = 1; k < nz - 1; k++) {
    if (i < nx && j < ny)
      above = in[i + nx * (j + ny * (k + 1))];
    if (i2 < nx && j < ny)
      above2 = in[i2 + nx * (j + ny * (k + 1))];
    bool inner = threadIdx.y > 0 && threadIdx.y + 1 < blockDim.y;
    if (inner && i > 0 && j > 0 && i < nx - 1 && j < ny - 1 && threadIdx.x > 0)
      out[i + nx * (j + ny * k)] =
          c1 * (below + above + tile[t - 1] + tile[t + 1] +
                tile[t - 2 * blockDim.x] + tile[t + 2 * blockDim.x]) - c0 * tile[t];
    if (inner && j > 0 && i2 < nx - 1 && j < ny - 1 && threadIdx.x + 1 < blockDim.x)
      out[i2 + nx * (j + ny * k)] =
          c1 * (below2 + above2 + tile[t2 - 1] + tile[t2 + 1] +
                tile[t2 - 2 * blockDim.x] + tile[t2 + 2 * blockDim.x]) - c0 * tile[t2];
    __syncthreads();
    below = tile[t];
    below2 = tile[t2];
    tile[t] = above;
    tile[t2] = above2;
    __syncthreads();
  }
}

void launch_stencil3d(const float *in, float *out, int nx, int ny, int nz) {
  dim3 block(32, 4);
  dim3 grid((nx + 63) / 64, (ny + 3) / 4);
  stencil3d_planes<<<grid, block, 64 * 4 * sizeof(float)>>>(in, out, nx, ny, nz, 0.5f, 0.1f);
}
