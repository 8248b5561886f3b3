// expect: drf
// padded_volume_copy_racy.cu with the precondition drfscan suggests for
// it: the source's rows and planes fit within the destination's.
#define at(ix, iy, iz, nx, ny) (((iz) * (ny) + (iy)) * (nx) + (ix))
__global__ void copy_into_padded(float *dst, int Dx, int Dy, int Dz,
                                 const float *src, int Sx, int Sy, int Sz,
                                 float scale) {
  __requires(Sx <= Dx && Sy <= Dy);
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  int iz = blockIdx.z * blockDim.z + threadIdx.z;
  if (ix < Sx && iy < Sy && iz < Sz) {
    dst[at(ix, iy, iz, Dx, Dy)] = scale * src[at(ix, iy, iz, Sx, Sy)];
  }
}
