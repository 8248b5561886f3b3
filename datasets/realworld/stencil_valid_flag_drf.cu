// expect: drf
// A plane-by-plane stencil over a volume padded by a halo of R cells on
// each side, whose threads past the volume's edge only clear a `valid`
// flag (`bool valid = true; if (gx >= nx) valid = false; …`) and keep
// loading the tile, as the SDK's finite-difference sample does. The store
// `if (valid)` is then under the conjunction of the flag's conditions:
// each thread writes its own column of each plane.
#define R 4
#define BX 32
#define BY 16

__global__ void smooth_planes(float *out, const float *in, int nx, int ny, int nz) {
  __shared__ float tile[BY + 2 * R][BX + 2 * R];
  bool valid = true;
  int gx = blockIdx.x * BX + threadIdx.x;
  int gy = blockIdx.y * BY + threadIdx.y;
  if (gx >= nx)
    valid = false;
  if (gy >= ny)
    valid = false;
  int stride_y = nx + 2 * R;
  int stride_z = stride_y * (ny + 2 * R);
  int at = R * stride_z + (gy + R) * stride_y + gx + R;
  for (int z = 0; z < nz; z++) {
    __syncthreads();
    tile[threadIdx.y + R][threadIdx.x + R] = in[at];
    if (threadIdx.x < R) {
      tile[threadIdx.y + R][threadIdx.x] = in[at - R];
      tile[threadIdx.y + R][threadIdx.x + BX + R] = in[at + BX];
    }
    __syncthreads();
    float v = tile[threadIdx.y + R][threadIdx.x + R] +
              tile[threadIdx.y + R][threadIdx.x + R - 1] +
              tile[threadIdx.y + R][threadIdx.x + R + 1];
    if (valid)
      out[at] = v;
    at += stride_z;
  }
}

void run(float *out, const float *in, int nx, int ny, int nz) {
  dim3 block(BX, BY);
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  smooth_planes<<<grid, block>>>(out, in, nx, ny, nz);
}
