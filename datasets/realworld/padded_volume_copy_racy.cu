// expect: racy
// A volume copied into a larger, zero-padded one, as micromagnetic and
// FFT-convolution codes pad their grids: the destination's rows are Dx
// long and its planes Dy rows, the source's Sx and Sy. Rows of the two
// volumes stay apart only when each of the source's sizes fits within the
// destination's, `Sx <= Dx` and `Sy <= Dy` at once; for other sizes two
// threads write one cell. drfscan reports the race as possible and
// suggests that pair.
#define at(ix, iy, iz, nx, ny) (((iz) * (ny) + (iy)) * (nx) + (ix))
__global__ void copy_into_padded(float *dst, int Dx, int Dy, int Dz,
                                 const float *src, int Sx, int Sy, int Sz,
                                 float scale) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  int iz = blockIdx.z * blockDim.z + threadIdx.z;
  if (ix < Sx && iy < Sy && iz < Sz) {
    dst[at(ix, iy, iz, Dx, Dy)] = scale * src[at(ix, iy, iz, Sx, Sy)];
  }
}
